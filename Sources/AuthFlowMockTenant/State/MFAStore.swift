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

  mutating func updateOOB(_ code: String, _ challenge: OOBChallenge) { oob[code] = challenge }

  /// Consumes the OOB code: single use.
  mutating func removeOOB(_ code: String) { oob[code] = nil }

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
