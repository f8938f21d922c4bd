import AuthFlowJOSE

/// Brute-force protection (docs/protocol.md §9): consecutive failures per user (identifier) and IP; at the
/// tenant's `brute_force_limit` the pair is blocked (`too_many_attempts`) and the user, when known,
/// gets an unblock email. The unblock link or a password reset clears the block.
struct BruteForce {
  let tenant: MockTenant

  static func key(identifier: String, ip: String) -> String { "\(identifier.lowercased())|\(ip)" }

  /// How long an unblock link works, seconds (five days).
  static let ticketLifetime = 432_000.0

  /// Checks a password login of `identifier` on `connection` from `ip` in one step
  /// (``MockState/checkPassword(_:identifier:connection:failureKey:limit:)``); the failure that
  /// blocks the pair sends the user's unblock email.
  func check(_ password: String, identifier: String, connection: String, ip: String) -> MockState.PasswordCheck {
    let key = Self.key(identifier: identifier, ip: ip)
    let limit = tenant.fixture.settings.bruteForceLimit
    let outcome = tenant.transact {
      $0.checkPassword(password, identifier: identifier, connection: connection, failureKey: key, limit: limit)
    }
    if case .wrong(let user?, reachedLimit: true) = outcome, let address = user.email {
      sendUnblockLink(key, to: address)
    }
    return outcome
  }

  private func sendUnblockLink(_ key: String, to address: String) {
    let ticket = RandomToken.make(bytes: 24)
    let now = tenant.clock.seconds
    let link = tenant.baseURL + "lo/unblock?ticket=" + FormEncoding.escape(ticket)
    let email = OutboxDraft.link(
      link, to: address, subject: "Your account has been blocked",
      body: "We detected suspicious login attempts. Click the link to unblock your account: \(link)")
    tenant.transact {
      $0.sendUnblockLink(ticket: ticket, failureKey: key, email: email, now: now, expiresAt: now + Self.ticketLifetime)
    }
  }
}
