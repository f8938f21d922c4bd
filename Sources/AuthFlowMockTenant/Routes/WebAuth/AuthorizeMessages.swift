/// An error of `/authorize`: shown as a page when the redirect target cannot be trusted, sent on the
/// redirect channel otherwise (docs/protocol.md §2.2).
struct AuthorizeError: Error, Sendable {
  var code: String
  var description: String

  static func missingParameter(_ name: String) -> AuthorizeError {
    AuthorizeError(code: "invalid_request", description: "Missing required parameter: \(name)")
  }
  /// RFC 6749 §3.1 and §4.1.2.1. UNCONFIRMED: Auth0's exact text (and whether it refuses rather
  /// than reading one of the values), as for ``OAuthError/repeatedParameter(_:)``.
  static func repeatedParameter(_ name: String) -> AuthorizeError {
    AuthorizeError(code: "invalid_request", description: "Parameter \(name) is included more than once.")
  }
  static func unknownClient(_ id: String) -> AuthorizeError {
    AuthorizeError(code: "invalid_request", description: "Unknown client: \(id)")
  }
  static func callbackMismatch(_ uri: String) -> AuthorizeError {
    AuthorizeError(
      code: "invalid_request",
      description: "Callback URL mismatch. \(uri) is not in the list of allowed callback URLs")
  }
  static func unsupportedResponseType(_ type: String) -> AuthorizeError {
    AuthorizeError(code: "unsupported_response_type", description: "Unsupported response type: \(type)")
  }
  static func grantNotAllowed(_ grant: String) -> AuthorizeError {
    AuthorizeError(code: "unauthorized_client", description: "Grant type '\(grant)' not allowed for the client.")
  }
  /// Exact Auth0 text UNCONFIRMED.
  static func unsupportedResponseMode(_ mode: String) -> AuthorizeError {
    AuthorizeError(
      code: "invalid_request",
      description: "Unsupported response_mode: \(mode); use query, fragment, form_post or web_message")
  }
  static let queryModeForTokens = AuthorizeError(
    code: "invalid_request", description: "response_mode=query is not allowed when tokens are returned")
  static let webMessageNeedsWebOrigin = AuthorizeError(
    code: "invalid_request", description: "response_mode=web_message needs an http(s) redirect_uri")
  static let unsupportedChallengeMethod = AuthorizeError(
    code: "invalid_request", description: "Unsupported code_challenge_method; use S256 or plain")
  static let invalidMaxAge = AuthorizeError(
    code: "invalid_request", description: "max_age must be a non-negative integer")
  static func serviceNotFound(_ audience: String) -> AuthorizeError {
    AuthorizeError(code: "access_denied", description: "Service not found: \(audience)")
  }
  /// Exact Auth0 text UNCONFIRMED.
  static func organizationNotFound(_ reference: String) -> AuthorizeError {
    AuthorizeError(code: "invalid_request", description: "No organization found by that id or name: \(reference)")
  }
  /// Exact Auth0 text UNCONFIRMED (docs/protocol.md §8).
  static func notAMember(_ organization: String) -> AuthorizeError {
    AuthorizeError(code: "access_denied", description: "user is not a member of the organization \(organization)")
  }
  static let connectionNotFound = AuthorizeError(code: "invalid_request", description: "the connection was not found")
  static let loginRequired = AuthorizeError(code: "login_required", description: "Login required")
  /// OpenID Connect Core §6.3.
  static let requestNotSupported = AuthorizeError(
    code: "request_not_supported", description: "The request parameter (a request object) is not supported")
  static let requestURINotSupported = AuthorizeError(
    code: "request_uri_not_supported", description: "The request_uri parameter is not supported")
  /// A POST to `/authorize` whose body is not a form (OpenID Connect Core §3.1.2.1).
  static let malformedPostBody = AuthorizeError(
    code: "invalid_request", description: "A POST to the authorization endpoint takes a form-encoded body")
  static let blockedUser = AuthorizeError(code: "unauthorized", description: "user is blocked")
  static let unknownTransaction = AuthorizeError(
    code: "invalid_request", description: "The login transaction is unknown or has expired. Start again.")
  static let invalidCSRF = AuthorizeError(
    code: "invalid_request", description: "Invalid or missing CSRF token. Reload the page and try again.")
}

/// Universal Login form messages (shown in `#error-message`).
enum LoginMessages {
  static let wrongCredentials = "Wrong email or password."
  static let userExists = "The user already exists."
  static let challengeFailed = "We could not verify that you are human. Please solve the challenge and try again."
  static let wrongMFACode = "The code you entered is invalid"
  static let missingMFACode = "Please enter the code from your authenticator app."
  static let mfaBlocked = "Too many failed codes. This login transaction is blocked; start again."
  static let missingFields = "Please enter your email and password."
  static let tooManyAttempts =
    "Your account has been blocked after multiple consecutive login attempts. We've sent you an email with instructions on how to unblock it."
}
