import AuthFlowCore

/// The tenant's users: seeded from the fixture, grown by signups, counted for brute-force protection.
struct UserStore: Sendable {
  private var byID: [String: UserRecord] = [:]
  private var failures: [String: Int] = [:]
  /// Passwords a user had before the current one, oldest first (Password History).
  private var previousPasswords: [String: [String]] = [:]
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

  mutating func insert(_ user: UserRecord) {
    byID[user.userID] = user
  }

  /// Sets a user's password and clears every brute-force block of their identifiers; false for
  /// an unknown user.
  mutating func setPassword(_ password: String, userID: String, now: Double) -> Bool {
    guard var user = byID[userID] else { return false }
    if let old = user.password {
      previousPasswords[userID, default: []].append(old)
      if previousPasswords[userID, default: []].count > 24 { previousPasswords[userID]?.removeFirst() }
    }
    user.password = password
    user.updatedAt = now
    byID[userID] = user
    let identifiers = [user.email, user.username, user.phoneNumber].compactMap { $0?.lowercased() }
    failures = failures.filter { key, _ in
      !identifiers.contains { key.hasPrefix($0 + "|") }
    }
    return true
  }

  /// The user's last `count` passwords, newest first, the current one included.
  func recentPasswords(userID: String, count: Int) -> [String] {
    let current = byID[userID]?.password.map { [$0] } ?? []
    return Array((current + (previousPasswords[userID] ?? []).reversed()).prefix(count))
  }

  /// Replaces a user's record (same id).
  mutating func update(_ user: UserRecord) {
    guard byID[user.userID] != nil else { return }
    byID[user.userID] = user
  }

  /// Records a failed login; returns the consecutive count.
  mutating func recordFailure(key: String) -> Int {
    let count = (failures[key] ?? 0) + 1
    failures[key] = count
    return count
  }

  func failureCount(key: String) -> Int { failures[key] ?? 0 }

  mutating func clearFailures(key: String) {
    failures[key] = nil
  }

  /// How many users, and how many identifiers have failed logins counted.
  var counts: (users: Int, failures: Int) { (byID.count, failures.count) }
}
