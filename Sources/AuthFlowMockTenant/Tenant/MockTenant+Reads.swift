extension MockTenant {
  /// How many entries each per-login store holds, by name: what ``MockStateLimits`` bounds.
  /// For tests and `/__mock/state`-style diagnostics; reading it does not purge anything.
  public func stateCounts() async -> [String: Int] {
    read { $0.counts }
  }

  /// The user `id`, as stored now (a read: one atomic step that changes nothing).
  func user(id: String) -> UserRecord? {
    read { $0.users.user(id: id) }
  }

  /// The live Universal Login transaction `id` (nil for no id, unknown or expired).
  func loginTransaction(_ id: String?) -> LoginTransaction? {
    guard let id else { return nil }
    let now = clock.seconds
    return read { $0.transactions.live(id, now: now) }
  }
}
