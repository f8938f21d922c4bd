import AuthFlowCore
import Hummingbird

/// A My Account API error: RFC 7807-style `{"type","title","detail","status","validation_errors"?}`
/// (docs/protocol.md §1, §6). The SDK's `MyAccountError.code` is `type`.
///
/// docs/protocol.md gives the shape but no catalogue: the `type` values and `detail` texts below are the
/// mock's choice (UNCONFIRMED), short machine-readable codes so scenarios can match them.
struct MyAccountError: ErrorResponse, Sendable {
  var status: HTTPResponse.Status
  var type: String
  var title: String
  var detail: String
  var validationErrors: [Value] = []

  var response: Response {
    var body: [String: Value] = [
      "type": .string(type), "title": .string(title), "detail": .string(detail), "status": .int(status.code),
    ]
    if !validationErrors.isEmpty { body["validation_errors"] = .array(validationErrors) }
    return Responses.json(.object(body), status: status)
  }

  /// A 400 for one invalid body member (`pointer` is its JSON pointer, e.g. `/type`).
  static func invalidBody(_ field: String, _ detail: String) -> MyAccountError {
    MyAccountError(
      status: .badRequest, type: "invalid_request", title: "Bad Request", detail: "Invalid request payload input",
      validationErrors: [
        .object([
          "detail": .string(detail), "pointer": .string("/\(field)"), "field": .string(field),
          "source": .string("body"),
        ])
      ])
  }

  static let missingToken = MyAccountError(
    status: .unauthorized, type: "unauthorized", title: "Unauthorized", detail: "Missing Authorization header")
  static let invalidToken = MyAccountError(
    status: .unauthorized, type: "invalid_token", title: "Unauthorized", detail: "Invalid token")
  static func wrongAudience(_ expected: String) -> MyAccountError {
    MyAccountError(
      status: .unauthorized, type: "invalid_token", title: "Unauthorized",
      detail: "Invalid token audience, expected \(expected)")
  }
  static func insufficientScope(_ scope: String) -> MyAccountError {
    MyAccountError(
      status: .forbidden, type: "insufficient_scope", title: "Forbidden",
      detail: "Insufficient scope, expected: \(scope)")
  }
  static let notAUser = MyAccountError(
    status: .forbidden, type: "access_denied", title: "Forbidden",
    detail: "The My Account API needs a token issued to a user")
  static let malformedBody = MyAccountError(
    status: .badRequest, type: "invalid_request", title: "Bad Request", detail: "The request body is not valid JSON")
  static let methodNotFound = MyAccountError(
    status: .notFound, type: "not_found", title: "Not Found", detail: "Authentication method not found")
  static let userNotFound = MyAccountError(
    status: .notFound, type: "not_found", title: "Not Found", detail: "User not found")
  static func unsupportedType(_ type: String) -> MyAccountError {
    invalidBody("type", "Unsupported authentication method type: \(type)")
  }
  static let passkeyNeedsDatabase = invalidBody(
    "connection", "Passkeys can only be enrolled for an identity of a database connection")
  static let unknownIdentity = invalidBody(
    "identity_user_id", "The user has no identity with this identity_user_id and connection")
  static let invalidSession = MyAccountError(
    status: .badRequest, type: "invalid_auth_session", title: "Bad Request",
    detail: "The auth_session is invalid, expired or already used")
  static let malformedResponse = invalidBody("authn_response", "authn_response is not a valid WebAuthn response")
  static func attestationRejected(_ reason: String) -> MyAccountError {
    MyAccountError(
      status: .badRequest, type: "invalid_authn_response", title: "Bad Request",
      detail: "The passkey could not be verified: \(reason)")
  }
  static let passkeyExists = MyAccountError(
    status: .conflict, type: "passkey_exists", title: "Conflict", detail: "The passkey is already enrolled")
  static let invalidOTP = MyAccountError(
    status: .badRequest, type: "invalid_otp_code", title: "Bad Request", detail: "Invalid otp_code")
  static let methodNotUpdatable = invalidBody("name", "Only passkeys have a name")
  static let lastMethod = MyAccountError(
    status: .badRequest, type: "last_authentication_method", title: "Bad Request",
    detail: "The user's only way to log in can not be deleted")
}
