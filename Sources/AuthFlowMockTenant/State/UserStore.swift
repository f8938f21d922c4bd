import AuthFlowCore

/// The tenant's users: seeded from the fixture, grown by signups, counted for brute-force protection.
actor UserStore {
  private var byID: [String: UserRecord] = [:]
  private var failures: [String: Int] = [:]
  private let seed: [UserRecord]

  init(seed: [UserRecord]) {
    self.seed = seed
    for user in seed { byID[user.userID] = user }
  }

  func user(id: String) -> UserRecord? { byID[id] }

  /// The user of `connection` whose email (case-insensitive), username or phone number is `identifier`.
  func find(_ identifier: String, connection: String) -> UserRecord? {
    let lowered = identifier.lowercased()
    return byID.values.first { user in
      user.connection == connection
        && (user.email?.lowercased() == lowered || user.username == identifier || user.phoneNumber == identifier)
    }
  }

  func insert(_ user: UserRecord) {
    byID[user.userID] = user
  }

  /// Records a failed login; returns the consecutive count.
  func recordFailure(key: String) -> Int {
    let count = (failures[key] ?? 0) + 1
    failures[key] = count
    return count
  }

  func failureCount(key: String) -> Int { failures[key] ?? 0 }

  func clearFailures(key: String) {
    failures[key] = nil
  }

  func reset() {
    byID.removeAll()
    failures.removeAll()
    for user in seed { byID[user.userID] = user }
  }
}
