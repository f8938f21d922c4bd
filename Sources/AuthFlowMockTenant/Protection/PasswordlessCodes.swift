import AuthFlowCore
import AuthFlowJOSE

/// The one-time codes of passwordless connections (PROTOCOL §3.7, §4.3), shared by
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
    if connection.strategy == .sms {
      await tenant.outbox.send(
        channel: .sms, to: address, subject: "", body: "Your verification code is: \(code)", code: code, at: now)
    } else {
      await tenant.outbox.send(
        channel: .email, to: address, subject: "Welcome! Your verification code",
        body: "Your verification code is: \(code)", code: code, at: now)
    }
    let key = Self.key(connection: connection.name, address: address)
    await tenant.passwordlessCodes.insert(code, key: key, expiresAt: now + Self.lifetime)
    await tenant.passwordlessAttempts.remove(key)
  }

  /// Checks `otp` against the live code of `connection|address`; a right one is used up.
  func check(_ otp: String, connection: String, address: String) async -> Check {
    let key = Self.key(connection: connection, address: address)
    let now = tenant.clock.seconds
    let attempts = await tenant.passwordlessAttempts.get(key, now: now) ?? 0
    if attempts >= Self.maxAttempts { return .exhausted }
    guard let expected = await tenant.passwordlessCodes.get(key, now: now) else { return .wrong }
    guard RandomToken.constantTimeEquals(expected, otp) else {
      // Each wrong guess counts; the last one allowed uses the code up.
      await tenant.passwordlessAttempts.insert(attempts + 1, key: key, expiresAt: now + Self.lifetime)
      if attempts + 1 >= Self.maxAttempts {
        await tenant.passwordlessCodes.remove(key)
        return .exhausted
      }
      return .wrong
    }
    await tenant.passwordlessCodes.remove(key)
    await tenant.passwordlessAttempts.remove(key)
    return .accepted
  }

  /// The user of a passwordless connection with this address, created on first login.
  func user(connection: ConnectionConfig, address: String) async -> UserRecord {
    if let existing = await tenant.users.find(address, connection: connection.name) { return existing }
    let isEmail = connection.strategy == .email
    let user = UserRecord(
      profile: address, userID: "\(connection.name)|\(RandomToken.make(bytes: 12))", connection: connection.name,
      email: isEmail ? address : nil, emailVerified: isEmail, phoneNumber: isEmail ? nil : address,
      updatedAt: tenant.clock.seconds)
    await tenant.users.insert(user)
    return user
  }
}
