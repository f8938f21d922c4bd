/// An error code a step's `error.code` can hold: the tenant's (an OAuth / Auth0 protocol code) or
/// authflow's own (the SDK's Credentials Manager codes, `page_error`, …). Actions list theirs in
/// ``ActionTraits/errors``; `docs/errors.md` is generated from those lists.
public struct StepErrorCode: Sendable, Hashable, Comparable {
  /// Where the code comes from.
  public enum Origin: String, Sendable, Hashable {
    /// The tenant answered with it (docs/protocol.md).
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
  // The Authentication API's answers (docs/protocol.md §1, §3).
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
    "authorization_pending",
    "The user has not approved yet — a device code, or an MFA OOB challenge (push, SMS, email): poll again.")
  public static let slowDown = StepErrorCode(
    "slow_down", "Polled too fast (the device flow, an MFA OOB challenge): wait longer between polls.")
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
  public static let tooManyRequests = StepErrorCode(
    "too_many_requests",
    "The tenant's rate limit refused the request (HTTP 429, docs/protocol.md §9): after the retries an environment error, unless the step's `error` expectations accept it (`error.code: too_many_requests`)."
  )
  public static let injectedFault = StepErrorCode(
    "injected_fault",
    "The mock tenant answered with a fault `mock_fault` injected (`kind: status`, a status below 500).")
  public static let associationRequired = StepErrorCode(
    "association_required", "MFA: the user has no authenticator to challenge; one must be enrolled (associated) first.")
  public static let mfaRegistrationRequired = StepErrorCode(
    "a0.mfa_registration_required", "MFA: the legacy form of `unsupported_challenge_type` when enrolment is required.")
  public static let legacyMFARequired = StepErrorCode(
    "a0.mfa_required", "The legacy form of `mfa_required` (docs/protocol.md §3.6), which Auth0.swift recognises too.")
  public static let passwordLeaked = StepErrorCode(
    "password_leaked",
    "Breached password detection blocked the login: the password leaked elsewhere (docs/protocol.md §9).")
  public static let usernameExists = StepErrorCode("username_exists", "Signup: the username is taken.")
  public static let invalidConnection = StepErrorCode(
    "invalid_connection", "Signup: the database connection is unknown or disabled.")
  public static let badRequest = StepErrorCode(
    "bad.request",
    "Passwordless: a property is not allowed (the mock: `send` other than `code`, as it sends no links).")
  public static let badTenant = StepErrorCode("bad.tenant", "Passwordless: the tenant is not set up for it.")
  public static let smsProviderError = StepErrorCode(
    "sms_provider_error", "Passwordless: the SMS provider failed to send the message.")
  public static let unsupportedResponseType = StepErrorCode(
    "unsupported_response_type", "`/authorize`: the tenant does not support the `response_type`.")
  public static let requestNotSupported = StepErrorCode(
    "request_not_supported", "`/authorize`: the provider does not take request objects (`request`, OIDC Core §6.3).")
  public static let requestURINotSupported = StepErrorCode(
    "request_uri_not_supported", "`/authorize`: the provider does not take `request_uri` (OIDC Core §6.3).")
  public static let serverError = StepErrorCode(
    "server_error", "`/authorize`: the server failed to complete the request, on the callback (RFC 6749 §4.1.2.1).")
  public static let inexistentUser = StepErrorCode("inexistent_user", "Management API: no user has that id (HTTP 404).")
  public static let inexistentIdentity = StepErrorCode(
    "inexistent_identity", "Management API: the identity is not linked to the user (HTTP 404).")
  public static let identityConflict = StepErrorCode(
    "identity_conflict", "Management API: the identity is already linked (HTTP 409).")
  public static let invalidBody = StepErrorCode(
    "invalid_body", "Management API: the request body fails validation (`error.description` says how).")
  public static let notFound = StepErrorCode("not_found", "My Account API: no authentication method has that id.")
  public static let invalidAuthSession = StepErrorCode(
    "invalid_auth_session", "My Account API: the enrolment's `auth_session` is unknown, used or expired.")
  public static let invalidOTPCode = StepErrorCode("invalid_otp_code", "My Account API: the enrolment's code is wrong.")
  public static let invalidAuthnResponse = StepErrorCode(
    "invalid_authn_response", "My Account API: the passkey's attestation does not verify.")
  public static let passkeyExists = StepErrorCode(
    "passkey_exists", "My Account API: the user already has this passkey.")
  public static let lastAuthenticationMethod = StepErrorCode(
    "last_authentication_method", "My Account API: the user's last authentication method cannot be deleted.")
  public static let passwordStrengthError = StepErrorCode(
    "password_strength_error", "My Account API: the new password fails the policy's strength rules.")
  public static let passwordHistoryError = StepErrorCode(
    "password_history_error", "My Account API: the new password was used recently.")
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

  /// The codes any call to the tenant can answer with, whatever the endpoint: its rate limit,
  /// and on the mock a fault `mock_fault` injected.
  public static let anyTenantCall: [StepErrorCode] = [tooManyRequests, injectedFault]
  /// The codes any Authentication API call can answer with.
  public static let authenticationAPI: [StepErrorCode] =
    anyTenantCall + [plainError, unknownError, invalidRequest, invalidClient]
  /// The codes of the My Account API's authentication methods (docs/protocol.md §6; the 7807 `type`).
  public static let myAccount: [StepErrorCode] =
    anyTenantCall + [
      invalidToken, insufficientScope, unauthorized, accessDenied, invalidRequest, notFound, invalidAuthSession,
    ]
  /// The codes any token request can answer with.
  public static let tokenEndpoint: [StepErrorCode] =
    authenticationAPI + [invalidGrant, unauthorizedClient, accessDenied, invalidScope, unsupportedGrantType]
}
