extension MockTenant {
  /// How many entries each per-login store holds, by name: what ``MockStateLimits`` bounds.
  /// For tests and `/__mock/state`-style diagnostics; reading it does not purge anything.
  public func stateCounts() async -> [String: Int] {
    withState { $0.counts }
  }
}
