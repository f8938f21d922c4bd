import AuthFlowCore
import AuthFlowJOSE

/// The one-time codes of passwordless connections (docs/protocol.md §3.7, §4.3), shared by
/// `/passwordless/start`, the passwordless/otp grant and the Universal Login passwordless pages:
/// one live code per `connection|address`, five minutes, used up by a right guess or by
/// `maxAttempts` wrong ones.
struct PasswordlessCodes {
  let tenant: MockTenant

  /// Wrong guesses of one code before it is used up.
  static let maxAttempts = 3
  /// How long a code stays valid, seconds.
  static let lifetime = 300.0

  /// What a guess did.
  enum Check: Sendable, Equatable {
    case accepted
    /// Wrong (or no live code).
    case wrong
    /// Too many wrong guesses: the code is gone.
    case exhausted
  }

  static func key(connection: String, address: String) -> String { "\(connection)|\(address.lowercased())" }

  /// Sends a new code to `address` through the outbox; the previous code and its failures are forgotten.
  func send(connection: ConnectionConfig, address: String) async {
    let code = sixDigits(Int.random(in: 0..<1_000_000))
    let now = tenant.clock.seconds
    let key = Self.key(connection: connection.name, address: address)
    let isSMS = connection.strategy == .sms
    let message = OutboxDraft.code(code, to: address, sms: isSMS, subject: "Welcome! Your verification code")
    // The message and the code it carries are stored in one step: a guess never sees one without
    // the other.
    tenant.transact {
      $0.sendPasswordlessCode(code, key: key, message: message, now: now, expiresAt: now + Self.lifetime)
    }
  }

  /// Checks `otp` against the live code of `connection|address`; a right one is used up. The
  /// guess is compared and counted in one step (``MockState/consumePasswordlessCode(_:key:now:maxAttempts:lifetime:)``).
  func check(_ otp: String, connection: String, address: String) async -> Check {
    let key = Self.key(connection: connection, address: address)
    let now = tenant.clock.seconds
    return tenant.transact {
      $0.consumePasswordlessCode(otp, key: key, now: now, maxAttempts: Self.maxAttempts, lifetime: Self.lifetime)
    }
  }

  /// The user of a passwordless connection with this address, created on first login (found or
  /// created in one step, so two first logins at once make one user).
  func user(connection: ConnectionConfig, address: String) async -> UserRecord {
    let isEmail = connection.strategy == .email
    let created = UserRecord(
      profile: address, userID: "\(connection.name)|\(RandomToken.make(bytes: 12))", connection: connection.name,
      email: isEmail ? address : nil, emailVerified: isEmail, phoneNumber: isEmail ? nil : address,
      phoneVerified: !isEmail, updatedAt: tenant.clock.seconds)
    let now = tenant.clock.seconds
    return tenant.transact {
      $0.findOrCreateUser(
        address, connection: connection.name, created: created, verifying: isEmail ? .email : .phone, now: now)
    }
  }
}
