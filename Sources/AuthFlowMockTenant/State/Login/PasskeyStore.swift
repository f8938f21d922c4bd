import AuthFlowJOSE

/// A passkey registered with the tenant (through `/passkey/register` or My Account).
struct PasskeyCredential: Sendable {
  /// base64url credential id.
  var id: String
  var userID: String
  /// base64url user handle.
  var userHandle: String
  var publicKey: COSEKey
  var signCount: UInt32
  var aaguid: [UInt8]
  var backedUp: Bool
  var createdAt: Double
  /// A user-given name (My Account `PATCH`).
  var name: String? = nil
  /// The `User-Agent` of the enrolling request (My Account).
  var userAgent: String? = nil
  var backupEligible = false
}

/// A pending passkey ceremony, keyed by its `auth_session`; single use.
struct PasskeySession: Sendable {
  enum Kind: Sendable {
    /// `/passkey/register`: a new user with this profile.
    case signup(profile: [String: String], metadata: [String: String], userHandle: String)
    /// `/passkey/challenge`: an existing user's discoverable credential.
    case login
    /// My Account enrollment for an existing user.
    case enrollment(userID: String, userHandle: String)
  }

  var kind: Kind
  var clientID: String?
  var realm: String
  var challenge: String
  var organization: OrganizationConfig?
}

/// The tenant's passkeys and pending ceremonies.
struct PasskeyStore: Sendable {
  private var credentials: [String: PasskeyCredential] = [:]
  var sessions: ExpiringStore<PasskeySession>

  init(limits: MockStateLimits, now: @escaping @Sendable () -> Double) {
    sessions = ExpiringStore(limits: limits, now: now)
  }

  func credential(id: String) -> PasskeyCredential? { credentials[id] }

  func credentials(userID: String) -> [PasskeyCredential] {
    credentials.values.filter { $0.userID == userID }.sorted { $0.createdAt < $1.createdAt }
  }

  /// The user handle the user's passkeys already use, if any.
  func userHandle(userID: String) -> String? { credentials.values.first { $0.userID == userID }?.userHandle }

  mutating func insert(_ credential: PasskeyCredential) {
    credentials[credential.id] = credential
  }

  /// Stores a verified counter. Fails when another assertion already moved the counter to or past
  /// `newCount` (a replay racing the first use).
  mutating func advance(id: String, from stored: UInt32, to newCount: UInt32) -> Bool {
    guard let current = credentials[id], current.signCount == stored else { return false }
    credentials[id]?.signCount = newCount
    return true
  }

  mutating func rename(id: String, to name: String?) {
    credentials[id]?.name = name
  }

  @discardableResult
  mutating func remove(id: String) -> PasskeyCredential? { credentials.removeValue(forKey: id) }

  var count: Int { credentials.count }
}
