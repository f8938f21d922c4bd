import AuthFlowJOSE

/// Brute-force protection (PROTOCOL §9): consecutive failures per user (identifier) and IP; at the
/// tenant's `brute_force_limit` the pair is blocked (`too_many_attempts`) and the user, when known,
/// gets an unblock email. The unblock link or a password reset clears the block.
struct BruteForce {
  let tenant: MockTenant

  static func key(identifier: String, ip: String) -> String { "\(identifier.lowercased())|\(ip)" }

  func isBlocked(_ key: String) async -> Bool {
    tenant.withState { $0.users.failureCount(key: key) } >= tenant.fixture.settings.bruteForceLimit
  }

  /// Counts a failure; the one that reaches the limit sends the unblock email.
  func recordFailure(_ key: String, user: UserRecord?) async {
    let count = tenant.withState({ $0.users.recordFailure(key: key) })
    guard count == tenant.fixture.settings.bruteForceLimit, let address = user?.email else { return }
    let ticket = RandomToken.make(bytes: 24)
    let now = tenant.clock.seconds
    tenant.withState { $0.protection.issue(.unblock(failureKey: key), id: ticket, expiresAt: now + 432_000, now: now) }
    let link = tenant.baseURL + "lo/unblock?ticket=" + FormEncoding.escape(ticket)
    tenant.withState {
      $0.outbox.send(
        channel: .email, to: address, subject: "Your account has been blocked",
        body: "We detected suspicious login attempts. Click the link to unblock your account: \(link)", link: link,
        at: now)
    }
  }

  func succeeded(_ key: String) async {
    tenant.withState { $0.users.clearFailures(key: key) }
  }
}
