import AuthFlowCore
import Foundation
import Hummingbird

/// Response builders shared by the endpoints.
enum Responses {
  static func json(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var fields = headers
    fields[.contentType] = "application/json; charset=utf-8"
    fields[.cacheControl] = "no-store"
    // RFC 6749 §5.1: token responses are not cached, by HTTP/1.0 caches either.
    RateLimitMiddleware.set("Pragma", "no-cache", on: &fields)
    return Response(
      status: status, headers: fields,
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText(revealSecrets: true))))
  }

  /// A page. `frameAncestors` is the CSP `frame-ancestors` source: `'none'` (with
  /// `X-Frame-Options: DENY`) for every page but a `web_message` response, which its own origin
  /// frames.
  static func html(_ text: String, status: HTTPResponse.Status = .ok, frameAncestors: String = "'none'") -> Response {
    var fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
    PageSecurityHeaders.apply(frameAncestors: frameAncestors, to: &fields)
    return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  static func redirect(_ location: String, cookies: [Cookie] = []) -> Response {
    var response = Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    for cookie in cookies { response.setCookie(cookie) }
    return response
  }

  static func empty(status: HTTPResponse.Status = .ok) -> Response {
    Response(status: status)
  }
}

/// An OAuth-style error (`{"error","error_description"}` plus extras), PROTOCOL §1 and §3.7.
struct OAuthError: Error, Sendable {
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

  static func missingParameter(_ name: String) -> OAuthError {
    OAuthError(status: .badRequest, code: "invalid_request", description: "Missing required parameter: \(name)")
  }
  /// The mock itself failed (a token could not be signed). A fixed text: the underlying error's
  /// description is internal and never sent.
  static let serverError = OAuthError(
    status: .internalServerError, code: "server_error", description: "The server could not complete the request.")
  static let malformedBody = OAuthError(
    status: .badRequest, code: "invalid_request", description: "The request body is not valid JSON or form data.")
  static let missingClientID = OAuthError(
    status: .badRequest, code: "invalid_request", description: "missing client_id parameter")
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
  static let invalidCode = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Invalid authorization code")
  static let invalidCodeVerifier = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Failed to verify code verifier")
  static let invalidRefreshToken = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Unknown or invalid refresh token.")
  static let deletedUserRefreshToken = OAuthError(
    status: .forbidden, code: "invalid_grant",
    description: "The refresh_token was generated for a user who doesn't exist anymore.")
  static let wrongCredentials = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Wrong email or password.")
  static let wrongEmailCode = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Wrong email or verification code.")
  static let wrongPhoneCode = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Wrong phone number or verification code.")
  /// Too many wrong guesses of one passwordless code (PROTOCOL §3.7): the code is used up.
  static let tooManyOTPAttempts = OAuthError(
    status: .forbidden, code: "invalid_grant",
    description: "You've reached the maximum number of attempts. Please try to login again.")
  /// Bot Detection (PROTOCOL §3.7; status UNCONFIRMED, the table's 401).
  static let requiresVerification = OAuthError(
    status: .unauthorized, code: "requires_verification", description: "Suspicious request requires verification")
  static let blockedUser = OAuthError(status: .unauthorized, code: "unauthorized", description: "user is blocked")
  static let tooManyAttempts = OAuthError(
    status: .tooManyRequests, code: "too_many_attempts",
    description:
      "Your account has been blocked after multiple consecutive login attempts. We've sent you an email with instructions on how to unblock it."
  )
  static let connectionNotFound = OAuthError(
    status: .badRequest, code: "invalid_request", description: "the connection was not found")
  static let connectionDisabled = OAuthError(
    status: .badRequest, code: "invalid_request", description: "the connection was disabled")
  static func serviceNotEnabled(_ audience: String) -> OAuthError {
    OAuthError(status: .forbidden, code: "access_denied", description: "Service not enabled within domain: \(audience)")
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
  static let invalidOTP = OAuthError(status: .forbidden, code: "invalid_grant", description: "Invalid otp_code.")
  static let malformedMFAToken = OAuthError(
    status: .forbidden, code: "invalid_grant", description: "Malformed mfa_token")
}
