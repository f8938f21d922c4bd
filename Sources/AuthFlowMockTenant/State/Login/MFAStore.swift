import AuthFlowJOSE

/// MFA state besides the fixture's enrolments: OOB challenges (SMS, email, push) and associations
/// (`/mfa/associate`) waiting for their first successful code (docs/protocol.md §3.6).
///
/// Bounded like every per-login store (``MockStateLimits``): both expire on the virtual clock — a
/// challenge after its `expiresAt`, an association with its MFA token — are purged once expired
/// for longer than `expiredGrace`, and capped at `maxEntriesPerStore`.
struct MFAStore: Sendable {
  /// An out-of-band challenge, answered with the `mfa-oob` grant.
  struct OOBChallenge: Sendable {
    enum Status: Sendable { case pending, approved, rejected }

    var mfaToken: String
    var userID: String
    var channel: String
    /// The code sent by SMS or email (`binding_code`); nil for push.
    var bindingCode: String?
    var status: Status
    var lastPoll: Double?
    var failures = 0
    var expiresAt: Double
    /// The enrolment this challenge confirms (associate), if any.
    var enrolment: MFAEnrollment?
  }

  private var oob: ExpiringStore<OOBChallenge>
  /// mfa_token → the OTP enrolment waiting for its first code.
  private var pendingOTP: ExpiringStore<MFAEnrollment>

  init(limits: MockStateLimits, now: @escaping @Sendable () -> Double) {
    oob = ExpiringStore(limits: limits, now: now)
    pendingOTP = ExpiringStore(limits: limits, now: now)
  }

  mutating func addOOB(_ challenge: OOBChallenge, code: String) {
    oob.insert(challenge, key: code, expiresAt: challenge.expiresAt)
  }

  func oobChallenge(_ code: String, now: Double) -> OOBChallenge? { oob.live(code, now: now) }

  /// Wrong binding codes before an OOB challenge is used up.
  static let maxBindingCodeFailures = 5

  /// What one `mfa-oob` grant request found.
  enum OOBAnswer: Sendable {
    /// Unknown, expired, used up, or another MFA token's.
    case unknown
    /// A wrong (or missing) `binding_code`; counted, and the challenge is gone after
    /// ``maxBindingCodeFailures``.
    case wrongBindingCode
    /// The push was rejected: reported once, then the challenge is gone.
    case rejected
    /// The push is undecided; `slowDown` when polled within `pollInterval`.
    case pending(slowDown: Bool)
    /// A right binding code or an approved push: the challenge is used up.
    case accepted(OOBChallenge)
  }

  /// Answers an `mfa-oob` grant request in one step: the binding code is compared and a failure
  /// counted (or the push decision read and the poll recorded), and the challenge used up when the
  /// answer ends it — so concurrent requests never get more guesses, nor two logins.
  mutating func answerOOB(
    _ code: String, mfaToken: String, bindingCode given: String?, now: Double, pollInterval: Double
  ) -> OOBAnswer {
    guard var challenge = oob.get(code, now: now), challenge.mfaToken == mfaToken else { return .unknown }
    if let expected = challenge.bindingCode {
      guard let given, RandomToken.constantTimeEquals(given, expected) else {
        challenge.failures += 1
        if challenge.failures >= Self.maxBindingCodeFailures {
          oob.remove(code)
        } else {
          addOOB(challenge, code: code)
        }
        return .wrongBindingCode
      }
    } else {
      switch challenge.status {
      case .rejected:
        oob.remove(code)
        return .rejected
      case .pending:
        let tooFast = challenge.lastPoll.map { now - $0 < pollInterval } ?? false
        challenge.lastPoll = now
        addOOB(challenge, code: code)
        return .pending(slowDown: tooFast)
      case .approved: break
      }
    }
    oob.remove(code)
    return .accepted(challenge)
  }

  /// Sets the decision of a live push (test control); false when there is none.
  mutating func decide(_ code: String, approve: Bool, now: Double) -> Bool {
    guard var challenge = oob.get(code, now: now), challenge.channel == "auth0" else { return false }
    challenge.status = approve ? .approved : .rejected
    addOOB(challenge, code: code)
    return true
  }

  /// Starts an OTP association for `mfaToken`, kept as long as the token lives.
  mutating func setPendingOTP(_ enrolment: MFAEnrollment, mfaToken: String, expiresAt: Double) {
    pendingOTP.insert(enrolment, key: mfaToken, expiresAt: expiresAt)
  }
  func pendingOTP(_ mfaToken: String, now: Double) -> MFAEnrollment? { pendingOTP.live(mfaToken, now: now) }
  mutating func removePendingOTP(_ mfaToken: String) { pendingOTP.remove(mfaToken) }

  /// How many OOB challenges and pending OTP associations are held.
  var counts: (oob: Int, pendingOTP: Int) { (oob.count, pendingOTP.count) }
}
