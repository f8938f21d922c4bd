import AuthFlowCore

/// An authentication method a user enrolled through the My Account API (passkeys live in the
/// `PasskeyStore`, passwords on the user).
struct EnrolledMethod: Sendable {
  /// `totp|dev_…`, `email|dev_…`, …
  var id: String
  var userID: String
  /// `totp`, `push-notification`, `recovery-code`, `email`, `phone`.
  var type: String
  var createdAt: Double
  var name: String?
  /// Type-specific members of the method object (`email`, `phone_number`,
  /// `preferred_authentication_method`).
  var details: [String: Value] = [:]
  /// The MFA factor the method adds to the user once verified (TOTP, email, phone, recovery
  /// code), so that `/mfa/*` and the MFA grants use it; nil for push and passwords.
  var factor: MFAEnrollment? = nil
}

/// A My Account enrollment started by `POST /me/v1/authentication-methods` and waiting for its
/// `…/verify`, keyed by `auth_session`; single use. (Passkey enrollments are `PasskeySession`s.)
struct PendingEnrollment: Sendable {
  var method: EnrolledMethod
  /// What the verify call must prove: an OTP (email, phone: the code sent; totp: the secret's
  /// current code), a new password, or nothing (push, recovery code).
  enum Proof: Sendable {
    case code(String)
    case totp(secret: String)
    case newPassword
    case none
  }
  var proof: Proof
}

/// The My Account API's enrolled methods and pending enrollments.
struct MyAccountStore: Sendable {
  private var methods: [String: EnrolledMethod] = [:]
  var pending: ExpiringStore<PendingEnrollment>

  init(limits: MockStateLimits, now: @escaping @Sendable () -> Double) {
    pending = ExpiringStore(limits: limits, now: now)
  }

  func methods(userID: String) -> [EnrolledMethod] {
    methods.values.filter { $0.userID == userID }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
  }

  func method(id: String, userID: String) -> EnrolledMethod? {
    guard let method = methods[id], method.userID == userID else { return nil }
    return method
  }

  mutating func insert(_ method: EnrolledMethod) {
    methods[method.id] = method
  }

  /// Removes the method; nil when it is not the user's.
  @discardableResult
  mutating func remove(id: String, userID: String) -> EnrolledMethod? {
    guard let method = methods[id], method.userID == userID else { return nil }
    methods[id] = nil
    return method
  }

  var count: Int { methods.count }
}
