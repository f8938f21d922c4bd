import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

extension TokenRoutes {
  /// The passwordless/otp grant with `auth_session` + `otp` (docs/protocol.md §3.1, "Passwordless OTP on
  /// DB connection"): the session of `/otp/challenge`, bound to its client, used up by a right code
  /// or by `PasswordlessCodes.maxAttempts` wrong ones; `allow_signup` creates the user here.
  func otpChallengeLogin(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let session = parameters.string("auth_session") else { throw OAuthError.missingParameter("auth_session") }
    guard let otp = parameters.string("otp") else { throw OAuthError.missingParameter("otp") }
    let now = tenant.clock.seconds
    // Compared, counted and used up in one step: concurrent guesses never pass the limit.
    let answer = tenant.transact {
      $0.answerOTPChallenge(
        session, otp: otp, clientID: client.clientID, now: now, maxAttempts: PasswordlessCodes.maxAttempts,
        lifetime: OTPChallengeRoutes.lifetime)
    }
    let challenge: OTPChallenge
    switch answer {
    case .unknownSession: throw OAuthError.invalidAuthSession
    case .tooManyAttempts: throw OAuthError.tooManyOTPAttempts
    case .wrong(let isPhone): throw isPhone ? OAuthError.wrongPhoneCode : OAuthError.wrongEmailCode
    case .accepted(let accepted): challenge = accepted
    }
    let wrong = challenge.isPhone ? OAuthError.wrongPhoneCode : OAuthError.wrongEmailCode
    try checkAudience(parameters.string("audience"))
    let user: UserRecord
    if challenge.allowSignup {
      let created = UserRecord(
        profile: challenge.identifier, userID: "auth0|\(RandomToken.make(bytes: 12))",
        connection: challenge.connection, email: challenge.isPhone ? nil : challenge.identifier,
        emailVerified: !challenge.isPhone, phoneNumber: challenge.isPhone ? challenge.identifier : nil,
        phoneVerified: challenge.isPhone, updatedAt: now)
      let verifying: MockState.VerifiedChannel = challenge.isPhone ? .phone : .email
      user = tenant.transact {
        $0.findOrCreateUser(
          challenge.identifier, connection: challenge.connection, created: created, verifying: verifying, now: now)
      }
    } else if let existing = tenant.transact({
      $0.verify(
        challenge.isPhone ? .phone : .email, of: challenge.identifier, connection: challenge.connection, now: now)
    }) {
      user = existing
    } else {
      throw wrong
    }
    return try await login(user, parameters: parameters, client: client)
  }
}

extension OAuthError {
  /// An unknown, expired, used or other client's `auth_session` (the exact Auth0 text is UNCONFIRMED).
  static let invalidAuthSession = OAuthError.invalidGrant("The auth_session is invalid or has expired.")
}
