/// A pending device authorization (RFC 8628): the device code, its user code, what it asks for and
/// what the user decided on `/activate`.
struct DeviceAuthorization: Sendable {
  enum Status: Sendable {
    case pending
    case approved(userID: String, authTime: Double)
    case denied
  }

  var deviceCode: String
  /// As shown to the user: `BCDF-GHJK`.
  var userCode: String
  var clientID: String
  var scope: [String]
  var audience: String?
  var expiresAt: Double
  /// Seconds the device must wait between polls.
  var interval: Double
  var status: Status = .pending
  var lastPoll: Double? = nil
}

/// Device codes by device code, with an index by user code. Expired codes answer `expired_token`
/// once and are then forgotten (`invalid_grant`), as Auth0 documents.
///
/// Bounded like every per-login store (``MockStateLimits``): every `purgeInterval` inserts, codes
/// expired for longer than `expiredGrace` that no device polled since are dropped, and past
/// `maxEntriesPerStore` the codes nearest expiry go.
struct DeviceCodeStore: Sendable {
  private var byDeviceCode: [String: DeviceAuthorization] = [:]
  private var deviceCodeByUserCode: [String: String] = [:]
  private let limits: MockStateLimits
  private var insertsSincePurge = 0

  init(limits: MockStateLimits) {
    self.limits = limits
  }

  /// What one poll of the token endpoint finds.
  enum Poll: Sendable {
    case unknown, expired, slowDown, pending, denied
    case approved(DeviceAuthorization, userID: String, authTime: Double)
  }

  /// Stores a new authorization; false (and nothing stored) when its user code is taken.
  mutating func insert(_ authorization: DeviceAuthorization, now: Double) -> Bool {
    guard !contains(userCode: authorization.userCode) else { return false }
    byDeviceCode[authorization.deviceCode] = authorization
    deviceCodeByUserCode[UserCode.normalized(authorization.userCode)] = authorization.deviceCode
    insertsSincePurge += 1
    if insertsSincePurge >= limits.purgeInterval || byDeviceCode.count > limits.maxEntriesPerStore {
      purge(now: now)
    }
    return true
  }

  /// Whether `userCode` is taken by a code not yet forgotten.
  func contains(userCode: String) -> Bool {
    deviceCodeByUserCode[UserCode.normalized(userCode)] != nil
  }

  /// The live, undecided authorization a user code stands for.
  func pending(userCode: String, now: Double) -> DeviceAuthorization? {
    guard let deviceCode = deviceCodeByUserCode[UserCode.normalized(userCode)],
      let entry = byDeviceCode[deviceCode], entry.expiresAt > now, case .pending = entry.status
    else { return nil }
    return entry
  }

  /// Records the user's decision; false when the code is no longer live and undecided (a user
  /// code is decided once).
  mutating func decide(userCode: String, _ status: DeviceAuthorization.Status, now: Double) -> Bool {
    guard var entry = pending(userCode: userCode, now: now) else { return false }
    entry.status = status
    byDeviceCode[entry.deviceCode] = entry
    return true
  }

  /// One poll by `clientID`: a device code is bound to its client, polled no faster than its
  /// interval, and used up by the answer that ends it (tokens, `access_denied`, `expired_token`).
  mutating func poll(_ deviceCode: String, clientID: String, now: Double) -> Poll {
    guard var entry = byDeviceCode[deviceCode], entry.clientID == clientID else { return .unknown }
    if entry.expiresAt <= now {
      forget(entry)
      return .expired
    }
    let tooFast = entry.lastPoll.map { now - $0 < entry.interval } ?? false
    entry.lastPoll = now
    byDeviceCode[deviceCode] = entry
    if tooFast { return .slowDown }
    switch entry.status {
    case .pending:
      return .pending
    case .denied:
      forget(entry)
      return .denied
    case .approved(let userID, let authTime):
      forget(entry)
      return .approved(entry, userID: userID, authTime: authTime)
    }
  }

  private mutating func forget(_ entry: DeviceAuthorization) {
    byDeviceCode[entry.deviceCode] = nil
    deviceCodeByUserCode[UserCode.normalized(entry.userCode)] = nil
  }

  /// Drops codes expired for longer than the grace that no device polled since, then, if still
  /// too many, keeps the codes expiring last.
  private mutating func purge(now: Double) {
    insertsSincePurge = 0
    for entry in byDeviceCode.values where entry.expiresAt + limits.expiredGrace < now { forget(entry) }
    guard byDeviceCode.count > limits.maxEntriesPerStore else { return }
    byDeviceCode.keepLargest(limits.trimmedSize) { $0.expiresAt }
    deviceCodeByUserCode.removeEntries { byDeviceCode[$0] == nil }
  }

  var count: Int { byDeviceCode.count }
}

/// User codes in Auth0's default format: eight letters of the base-20 consonant set, `XXXX-XXXX`.
enum UserCode {
  static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

  static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    let letters = (0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
    return String(letters[0..<4]) + "-" + String(letters[4..<8])
  }

  /// What users may type: any case, with or without the dash or spaces.
  static func normalized(_ text: String) -> String {
    String(text.uppercased().filter { $0.isLetter || $0.isNumber })
  }
}
