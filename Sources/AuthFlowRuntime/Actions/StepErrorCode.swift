/// An error code a step's `error.code` can hold: the tenant's (an OAuth / Auth0 protocol code) or
/// authflow's own (the SDK's Credentials Manager codes, `page_error`, …). Actions list theirs in
/// ``ActionTraits/errors``; `docs/errors.md` is generated from those lists.
public struct StepErrorCode: Sendable, Hashable, Comparable {
  /// Where the code comes from.
  public enum Origin: String, Sendable, Hashable {
    /// The tenant answered with it (PROTOCOL.md).
    case tenant
    /// authflow produces it, as the SDK it mirrors does.
    case authflow
  }

  /// The code as `error.code` holds it.
  public var code: String
  /// What it means, one line.
  public var summary: String
  public var origin: Origin

  public init(_ code: String, _ summary: String, origin: Origin = .tenant) {
    self.code = code
    self.summary = summary
    self.origin = origin
  }

  public static func < (lhs: StepErrorCode, rhs: StepErrorCode) -> Bool { lhs.code < rhs.code }
}

extension StepErrorCode {
  // The Authentication API's answers (PROTOCOL §1, §3).
  public static let invalidGrant = StepErrorCode(
    "invalid_grant", "The grant (code, password, refresh token, OTP, …) is wrong, expired or already used.")
  public static let invalidRequest = StepErrorCode("invalid_request", "A required parameter is missing or malformed.")
  public static let invalidClient = StepErrorCode("invalid_client", "The client failed to authenticate.")
  public static let invalidScope = StepErrorCode("invalid_scope", "The requested scope is not allowed.")
  public static let unauthorizedClient = StepErrorCode(
    "unauthorized_client", "The client may not use this grant (not enabled for it).")
  public static let unsupportedGrantType = StepErrorCode(
    "unsupported_grant_type", "The tenant does not support the grant (HTTP 501 or 400).")
  public static let accessDenied = StepErrorCode(
    "access_denied", "The user or a rule denied the request (also: the user declined a device code).")
  public static let insufficientScope = StepErrorCode(
    "insufficient_scope", "The access token lacks a scope the API call needs (HTTP 403).")
  public static let inexistentOrganization = StepErrorCode(
    "inexistent_organization", "No organization has that id (HTTP 404).")
  public static let unauthorized = StepErrorCode("unauthorized", "The token or client is not allowed (HTTP 401/403).")
  public static let tooManyAttempts = StepErrorCode(
    "too_many_attempts", "Brute-force protection blocked the user after repeated failures.")
  public static let invalidUserPassword = StepErrorCode(
    "invalid_user_password", "Wrong username or password (Auth0's legacy code).")
  public static let mfaRequired = StepErrorCode(
    "mfa_required", "The login needs a second factor: `error.body.mfa_token` continues it with the MFA actions.")
  public static let expiredToken = StepErrorCode("expired_token", "The MFA token or device code has expired.")
  public static let authorizationPending = StepErrorCode(
    "authorization_pending", "The user has not yet approved the device code (the last answer when polling ran out).")
  public static let slowDown = StepErrorCode("slow_down", "The device flow was polled too fast.")
  public static let unsupportedChallengeType = StepErrorCode(
    "unsupported_challenge_type", "The requested MFA challenge type is not enrolled or not enabled.")
  public static let loginRequired = StepErrorCode(
    "login_required", "`prompt=none` without a login session: the user must log in.")
  public static let consentRequired = StepErrorCode("consent_required", "`prompt=none` but the user must consent.")
  public static let interactionRequired = StepErrorCode(
    "interaction_required", "`prompt=none` but the login needs the user (MFA, a form, …).")
  public static let userExists = StepErrorCode("user_exists", "Signup: the user already exists.")
  public static let invalidPassword = StepErrorCode(
    "invalid_password", "Signup: the password fails the connection's policy (`error.body.name` says which).")
  public static let passwordDictionaryError = StepErrorCode(
    "password_dictionary_error", "Signup: the password is in the connection's dictionary of common passwords.")
  public static let passwordNoUserInfoError = StepErrorCode(
    "password_no_user_info_error", "Signup: the password contains the user's own information.")
  public static let requiresVerification = StepErrorCode(
    "requires_verification", "Bot detection: the request must pass a CAPTCHA first (`bot_detection`).")
  public static let inexistentInvitation = StepErrorCode(
    "inexistent_invitation", "No invitation has that id (HTTP 404).")
  public static let invalidSignup = StepErrorCode("invalid_signup", "Signup refused (generic).")
  public static let badConnection = StepErrorCode(
    "bad.connection", "Passwordless: the connection is unknown or disabled.")
  public static let badEmail = StepErrorCode("bad.email", "Passwordless: the email address is not valid.")
  public static let badPhoneNumber = StepErrorCode("bad.phone_number", "Passwordless: the phone number is not valid.")
  public static let unsupportedTokenType = StepErrorCode(
    "unsupported_token_type", "Revocation: the tenant does not revoke this kind of token.")
  public static let invalidToken = StepErrorCode("invalid_token", "The access token is missing, expired or not valid.")
  public static let plainError = StepErrorCode(
    "a0.sdk.internal_error.plain",
    "The error response is not JSON; `error.description` holds its text (as Auth0.swift reads it).", origin: .authflow)
  public static let unknownError = StepErrorCode(
    "a0.sdk.internal_error.unknown", "The JSON error response has no `error` or `code` member.", origin: .authflow)

  // authflow's own (and the SDK's) codes.
  public static let noCredentials = StepErrorCode(
    "no_credentials", "The Credentials Manager holds no valid credentials.", origin: .authflow)
  public static let noRefreshToken = StepErrorCode(
    "no_refresh_token", "The stored credentials have no refresh token.", origin: .authflow)
  public static let refreshFailed = StepErrorCode(
    "refresh_failed", "Renewing the stored credentials failed; the tenant's error is in `cause`.", origin: .authflow)
  public static let largeMinTTL = StepErrorCode(
    "large_min_ttl", "Even renewed credentials would not live `min_ttl` long.", origin: .authflow)
  public static let apiExchangeFailed = StepErrorCode(
    "api_exchange_failed", "Exchanging the refresh token for API credentials failed; the cause is in `error.body`.",
    origin: .authflow)
  public static let ssoExchangeFailed = StepErrorCode(
    "sso_exchange_failed", "Exchanging the refresh token for a session transfer token failed.", origin: .authflow)
  public static let revokeFailed = StepErrorCode(
    "revoke_failed", "Revoking the stored refresh token failed; the credentials stay.", origin: .authflow)
  public static let pageError = StepErrorCode(
    "page_error", "A login, consent or device page answered a submission with an error; the page is in `page`.",
    origin: .authflow)

  /// The codes any Authentication API call can answer with.
  public static let authenticationAPI: [StepErrorCode] = [plainError, unknownError, invalidRequest, invalidClient]
  /// The codes any token request can answer with.
  public static let tokenEndpoint: [StepErrorCode] =
    authenticationAPI + [invalidGrant, unauthorizedClient, accessDenied, invalidScope, unsupportedGrantType]
}
