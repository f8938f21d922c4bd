import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

extension TokenRoutes {
  /// The passwordless/otp grant with `auth_session` + `otp` (PROTOCOL §3.1, "Passwordless OTP on
  /// DB connection"): the session of `/otp/challenge`, bound to its client, used up by a right code
  /// or by `PasswordlessCodes.maxAttempts` wrong ones; `allow_signup` creates the user here.
  func otpChallengeLogin(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let session = parameters.string("auth_session") else { throw OAuthError.missingParameter("auth_session") }
    guard let otp = parameters.string("otp") else { throw OAuthError.missingParameter("otp") }
    let now = tenant.clock.seconds
    guard var challenge = await tenant.otpChallenges.get(session, now: now), challenge.clientID == client.clientID
    else { throw OAuthError.invalidAuthSession }
    let wrong = challenge.isPhone ? OAuthError.wrongPhoneCode : OAuthError.wrongEmailCode
    guard let expected = challenge.code, RandomToken.constantTimeEquals(expected, otp) else {
      challenge.failures += 1
      if challenge.failures >= PasswordlessCodes.maxAttempts {
        await tenant.otpChallenges.remove(session)
        throw OAuthError.tooManyOTPAttempts
      }
      await tenant.otpChallenges.insert(challenge, key: session, expiresAt: now + OTPChallengeRoutes.lifetime)
      throw wrong
    }
    // Single use: a right code ends the session, whatever happens next.
    await tenant.otpChallenges.remove(session)
    try checkAudience(parameters.string("audience"))
    let user: UserRecord
    if let existing = await tenant.users.find(challenge.identifier, connection: challenge.connection) {
      user = existing
    } else if challenge.allowSignup {
      user = UserRecord(
        profile: challenge.identifier, userID: "auth0|\(RandomToken.make(bytes: 12))",
        connection: challenge.connection, email: challenge.isPhone ? nil : challenge.identifier,
        emailVerified: !challenge.isPhone, phoneNumber: challenge.isPhone ? challenge.identifier : nil,
        updatedAt: now)
      await tenant.users.insert(user)
    } else {
      throw wrong
    }
    return try await login(user, parameters: parameters, client: client)
  }
}

extension OAuthError {
  /// An unknown, expired, used or other client's `auth_session` (the exact Auth0 text is UNCONFIRMED).
  static let invalidAuthSession = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "The auth_session is invalid or has expired.")
}
