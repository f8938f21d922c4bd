import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

extension TokenRoutes {
  /// `mfa_requirements` of an `mfa_required` answer: what the user can be challenged with, or
  /// `enroll` when they have nothing but a recovery code.
  static func mfaRequirements(of user: UserRecord) -> Value {
    var challenge: [Value] = []
    for kind in [MFAEnrollment.Kind.totp, .sms, .email, .recoveryCode]
    where user.mfa.contains(where: { $0.kind == kind }) {
      let type: String
      switch kind {
      case .totp: type = "otp"
      case .sms: type = "phone"
      case .email: type = "email"
      case .recoveryCode: type = "recovery-code"
      }
      challenge.append(.object(["type": .string(type)]))
    }
    guard user.mfa.contains(where: { $0.kind != .recoveryCode }) else {
      // Only a recovery code (an enrolment that was removed): the user must enroll a factor.
      return .object(["enroll": .array(["otp", "phone", "push-notification"].map { .object(["type": .string($0)]) })])
    }
    return .object(["challenge": .array(challenge)])
  }

  /// `mfa-otp`: a TOTP code for an enrolled authenticator or for the association started with this
  /// MFA token (which it confirms). The MFA token is single use once it succeeds.
  func mfaOTP(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    let (mfaToken, user, otp) = try await MFATokens(tenant: tenant).resolve(
      parameters, requiring: "otp", client: client)
    let now = tenant.clock.now()
    let throttle = MFAThrottle(tenant: tenant)
    guard throttle.reserve(user.userID) else { throw OAuthError.tooManyMFAAttempts }
    let pending = tenant.read { $0.mfa.pendingOTP(mfaToken, now: now.timeIntervalSince1970) }
    let candidates = user.mfa.filter { $0.kind == .totp } + (pending.map { [$0] } ?? [])
    guard let matched = candidates.first(where: { TOTP(base32Secret: $0.secret)?.verify(otp, at: now) ?? false }) else {
      // The attempt taken by `reserve` stays taken: a wrong code.
      throw OAuthError.invalidOTP
    }
    throttle.refund(user.userID)
    // A code that already logged the user in is not accepted again.
    guard throttle.consume(otp, userID: user.userID) else { throw OAuthError.invalidOTP }
    return try await finishMFA(mfaToken, enrolling: matched == pending ? matched : nil, client: client)
  }

  /// `mfa-oob`: polls a push (`authorization_pending`, `slow_down`, rejection) or checks the
  /// `binding_code` sent by SMS or email. OOB codes are single use.
  func mfaOOB(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    let (mfaToken, _, oobCode) = try await MFATokens(tenant: tenant).resolve(
      parameters, requiring: "oob_code", client: client)
    let now = tenant.clock.seconds
    let bindingCode = parameters.string("binding_code")
    // Checked, counted and used up in one step: concurrent binding-code guesses never pass the
    // limit, and an approved push logs in once.
    let answer = tenant.transact {
      $0.answerOOBChallenge(
        oobCode, mfaToken: mfaToken, bindingCode: bindingCode, now: now, pollInterval: MFARoutes.pollInterval)
    }
    let challenge: MFAStore.OOBChallenge
    switch answer {
    case .unknown: throw OAuthError.invalidOOBCode
    case .wrongBindingCode: throw OAuthError.invalidBindingCode
    case .rejected: throw OAuthError.mfaRejected
    case .pending(let slowDown): throw slowDown ? OAuthError.slowDown : OAuthError.authorizationPending
    case .accepted(let accepted): challenge = accepted
    }
    return try await finishMFA(mfaToken, enrolling: challenge.enrolment, client: client)
  }

  /// `mfa-recovery-code`: the user's recovery code; it is replaced, and the new one is in the
  /// response as `recovery_code`.
  func mfaRecoveryCode(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    let (mfaToken, user, code) = try await MFATokens(tenant: tenant).resolve(
      parameters, requiring: "recovery_code", client: client)
    // Checked and replaced in one step: a recovery code logs in once, however many use it at once.
    let next = MFAMethods.newRecoveryCode()
    guard tenant.transact({ $0.replaceRecoveryCode(code, userID: user.userID, with: next) }) else {
      throw OAuthError.mfaRejected
    }
    var body = try await finishMFA(mfaToken, enrolling: nil, client: client)
    body["recovery_code"] = .string(next)
    return body
  }

  /// Uses up the MFA token of a second factor that verified (with the factor the login confirms)
  /// and issues the tokens of its grant.
  private func finishMFA(
    _ mfaToken: String, enrolling: MFAEnrollment?, client: ClientConfig
  ) async throws -> [String: Value] {
    let grant = try MFATokens(tenant: tenant).redeem(mfaToken, enrolling: enrolling)
    return try await issuer.response(for: grant, client: client, requestedScope: grant.scope, issueRefreshToken: true)
  }
}
