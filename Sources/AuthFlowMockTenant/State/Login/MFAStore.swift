import AuthFlowJOSE

/// MFA state besides the fixture's enrolments: OOB challenges (SMS, email, push) and associations
/// (`/mfa/associate`) waiting for their first successful code (PROTOCOL §3.6).
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

  private var oob: [String: OOBChallenge] = [:]
  /// mfa_token → the OTP enrolment waiting for its first code.
  private var pendingOTP: [String: MFAEnrollment] = [:]

  mutating func addOOB(_ challenge: OOBChallenge, code: String) { oob[code] = challenge }

  func oobChallenge(_ code: String, now: Double) -> OOBChallenge? {
    guard let challenge = oob[code], challenge.expiresAt > now else { return nil }
    return challenge
  }

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
    guard var challenge = oobChallenge(code, now: now), challenge.mfaToken == mfaToken else { return .unknown }
    if let expected = challenge.bindingCode {
      guard let given, RandomToken.constantTimeEquals(given, expected) else {
        challenge.failures += 1
        oob[code] = challenge.failures >= Self.maxBindingCodeFailures ? nil : challenge
        return .wrongBindingCode
      }
    } else {
      switch challenge.status {
      case .rejected:
        oob[code] = nil
        return .rejected
      case .pending:
        let tooFast = challenge.lastPoll.map { now - $0 < pollInterval } ?? false
        challenge.lastPoll = now
        oob[code] = challenge
        return .pending(slowDown: tooFast)
      case .approved: break
      }
    }
    oob[code] = nil
    return .accepted(challenge)
  }

  /// Sets the push decision (test control).
  mutating func decide(_ code: String, approve: Bool) -> Bool {
    guard var challenge = oob[code], challenge.channel == "auth0" else { return false }
    challenge.status = approve ? .approved : .rejected
    oob[code] = challenge
    return true
  }

  mutating func setPendingOTP(_ enrolment: MFAEnrollment, mfaToken: String) { pendingOTP[mfaToken] = enrolment }
  func pendingOTP(_ mfaToken: String) -> MFAEnrollment? { pendingOTP[mfaToken] }
  mutating func removePendingOTP(_ mfaToken: String) { pendingOTP[mfaToken] = nil }

  /// How many OOB challenges and pending OTP associations are held.
  var counts: (oob: Int, pendingOTP: Int) { (oob.count, pendingOTP.count) }
}
