/// The MFA API's errors (docs/protocol.md §3.6; the SDK matches the `invalid_grant` and `expired_token`
/// strings exactly; statuses UNCONFIRMED: 403 for `invalid_grant` like the other grants, 401 for
/// token problems).
extension OAuthError {
  /// Too many wrong MFA codes for the user: the attempt bucket is empty (Auth0 documents the
  /// bucket; the status and text are UNCONFIRMED, the code is the SDK's `too_many_attempts`).
  static let tooManyMFAAttempts = OAuthError(
    status: .tooManyRequests, code: "too_many_attempts", description: "Too many failed attempts. Try again later.")
  static let expiredMFAToken = OAuthError(
    status: .unauthorized, code: "expired_token", description: "mfa_token is expired")
  static let invalidBindingCode = OAuthError.invalidGrant("Invalid binding_code.")
  static let mfaRejected = OAuthError.invalidGrant("MFA Authorization rejected.")
  static let invalidOOBCode = OAuthError.invalidGrant("Invalid oob_code.")
  static let authorizationPending = OAuthError(
    status: .badRequest, code: "authorization_pending",
    description: "Authorization pending: please repeat the request in a few seconds.")
  static let slowDown = OAuthError(
    status: .badRequest, code: "slow_down", description: "You are polling faster than allowed. Try again in 5 seconds.")
  static let missingBearer = OAuthError(
    status: .unauthorized, code: "unauthorized",
    description: "Missing or invalid Authorization header (Bearer mfa_token)")
  static let associationRequired = OAuthError(
    status: .badRequest, code: "association_required",
    description: "User is not enrolled. You can use /mfa/associate endpoint to enroll the first authenticator.")
  static func unsupportedChallengeType(_ types: String) -> OAuthError {
    OAuthError(
      status: .badRequest, code: "unsupported_challenge_type", description: "User is not enrolled with \(types).")
  }
  static let unknownAuthenticator = OAuthError.invalidRequest("Authenticator not found or not enrolled.")
  static func invalidAssociation(_ why: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_request", description: why)
  }
  static let alreadyEnrolled = OAuthError(
    status: .forbidden, code: "access_denied",
    description: "User is already enrolled. Use /mfa/challenge to challenge an enrolled authenticator.")
}
