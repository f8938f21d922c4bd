import AuthFlowCore
import Hummingbird

/// An OAuth-style error (`{"error","error_description"}` plus extras), docs/protocol.md §1 and §3.7.
struct OAuthError: ErrorResponse, Sendable {
  var status: HTTPResponse.Status
  var code: String
  var description: String
  var extra: [String: Value] = [:]
  /// Response headers besides the JSON ones (`Retry-After` on `slow_down`).
  var headers: HTTPFields = [:]

  var response: Response {
    var body = extra
    body["error"] = .string(code)
    body["error_description"] = .string(description)
    return Responses.json(.object(body), status: status, headers: headers)
  }

  /// Runs an endpoint of the Authentication API: an `OAuthError` it throws is its answer; any other
  /// error becomes `server_error`, whose text says nothing of the cause.
  static func respond(_ body: () async throws -> Response) async -> Response {
    await respond(otherwise: { _ in .serverError }, body)
  }

  /// `400 invalid_request` with `description`: a request the endpoint cannot read.
  static func invalidRequest(_ description: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_request", description: description)
  }

  /// `403 invalid_grant` with `description`: a code, token or credential that does not hold.
  static func invalidGrant(_ description: String) -> OAuthError {
    OAuthError(status: .forbidden, code: "invalid_grant", description: description)
  }

  static func missingParameter(_ name: String) -> OAuthError {
    OAuthError.invalidRequest("Missing required parameter: \(name)")
  }
  /// The mock itself failed (a token could not be signed). A fixed text: the underlying error's
  /// description is internal and never sent.
  static let serverError = OAuthError(
    status: .internalServerError, code: "server_error", description: "The server could not complete the request.")
  static let malformedBody = OAuthError.invalidRequest("The request body is not valid JSON or form data.")
  static let missingClientID = OAuthError.invalidRequest("missing client_id parameter")
  /// RFC 6749 §3.1 and §5.2. UNCONFIRMED: Auth0's exact text (and whether it refuses rather than
  /// reading one of the values) is not documented; the mock refuses, as the RFC requires.
  static func repeatedParameter(_ name: String) -> OAuthError {
    OAuthError.invalidRequest("Parameter \(name) is included more than once.")
  }
  /// RFC 6749 §2.3 and §5.2. UNCONFIRMED: Auth0's exact text.
  static let multipleClientAuthentication = OAuthError.invalidRequest(
    "The client used more than one authentication method (HTTP Basic and a secret in the body).")
  static let unauthorizedClient = OAuthError(status: .unauthorized, code: "access_denied", description: "Unauthorized")
  static func grantNotAllowed(_ grantType: String) -> OAuthError {
    OAuthError(
      status: .forbidden, code: "unauthorized_client",
      description: "Grant type '\(grantType)' not allowed for the client.")
  }
  static func unsupportedGrantType(_ grantType: String) -> OAuthError {
    OAuthError(
      status: .notImplemented, code: "unsupported_grant_type", description: "Unsupported grant type: \(grantType)")
  }
  static let invalidCode = OAuthError.invalidGrant("Invalid authorization code")
  static let invalidCodeVerifier = OAuthError.invalidGrant("Failed to verify code verifier")
  static let invalidRefreshToken = OAuthError.invalidGrant("Unknown or invalid refresh token.")
  static let deletedUserRefreshToken = OAuthError.invalidGrant(
    "The refresh_token was generated for a user who doesn't exist anymore.")
  static let wrongCredentials = OAuthError.invalidGrant("Wrong email or password.")
  static let wrongEmailCode = OAuthError.invalidGrant("Wrong email or verification code.")
  static let wrongPhoneCode = OAuthError.invalidGrant("Wrong phone number or verification code.")
  /// Too many wrong guesses of one passwordless code (docs/protocol.md §3.7): the code is used up.
  static let tooManyOTPAttempts = OAuthError.invalidGrant(
    "You've reached the maximum number of attempts. Please try to login again.")
  /// Bot Detection (docs/protocol.md §3.7; status UNCONFIRMED, the table's 401).
  static let requiresVerification = OAuthError(
    status: .unauthorized, code: "requires_verification", description: "Suspicious request requires verification")
  static let blockedUser = OAuthError(status: .unauthorized, code: "unauthorized", description: "user is blocked")
  static let tooManyAttempts = OAuthError(
    status: .tooManyRequests, code: "too_many_attempts",
    description:
      "Your account has been blocked after multiple consecutive login attempts. We've sent you an email with instructions on how to unblock it."
  )
  static let connectionNotFound = OAuthError.invalidRequest("the connection was not found")
  static let connectionDisabled = OAuthError.invalidRequest("the connection was disabled")
  static func serviceNotEnabled(_ audience: String) -> OAuthError {
    OAuthError(status: .forbidden, code: "access_denied", description: "Service not enabled within domain: \(audience)")
  }
  static func organizationNotFound(_ reference: String) -> OAuthError {
    OAuthError.invalidRequest("Organization not found: \(reference)")
  }
  static func clientNotGranted(_ audience: String) -> OAuthError {
    OAuthError(
      status: .forbidden, code: "access_denied",
      description: "Client has not been granted scopes for the audience: \(audience)")
  }
  /// MRRT: the audience is neither the original one nor in the client's refresh-token policies
  /// (exact Auth0 text UNCONFIRMED).
  static func audienceNotAllowed(_ audience: String) -> OAuthError {
    OAuthError(
      status: .forbidden, code: "invalid_request",
      description: "The refresh token is not allowed for the audience: \(audience)")
  }
  static func mfaRequired(
    token: String,
    requirements: Value = .object(["challenge": .array([.object(["type": .string("otp")])])])
  ) -> OAuthError {
    OAuthError(
      status: .forbidden, code: "mfa_required", description: "Multifactor authentication required",
      extra: ["mfa_token": .string(token), "mfa_requirements": requirements])
  }
  static let invalidOTP = OAuthError.invalidGrant("Invalid otp_code.")
  static let malformedMFAToken = OAuthError.invalidGrant("Malformed mfa_token")
}
