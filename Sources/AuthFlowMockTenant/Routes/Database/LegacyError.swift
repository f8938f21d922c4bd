import AuthFlowCore
import Hummingbird

/// An "Auth0 legacy" error (`{"name","code","description","statusCode"}`), used by
/// `/dbconnections/*` (docs/protocol.md §1, §4.1).
struct LegacyError: ErrorResponse, Sendable {
  var status: HTTPResponse.Status
  var name: String
  var code: String
  /// A string, or an object for `PasswordStrengthError`.
  var description: Value
  var extra: [String: Value] = [:]

  /// A failure the endpoint did not name (never a 5xx).
  static let unprocessable = LegacyError.badRequest("invalid_body", "The request could not be processed.")

  var response: Response {
    var body = extra
    body["name"] = .string(name)
    body["code"] = .string(code)
    body["description"] = description
    body["statusCode"] = .int(status.code)
    return Responses.json(.object(body), status: status)
  }

  static func badRequest(_ code: String, _ description: String) -> LegacyError {
    LegacyError(status: .badRequest, name: "BadRequestError", code: code, description: .string(description))
  }

  static let malformedBody = badRequest("invalid_body", "The request body is not valid JSON or form data.")
  static let missingClientID = badRequest("invalid_request", "missing client_id parameter")
  static let unknownClient = LegacyError(
    status: .unauthorized, name: "UnauthorizedError", code: "unauthorized", description: .string("Unauthorized"))
  static let missingConnection = badRequest("invalid_request", "missing connection parameter")
  static let connectionNotFound = badRequest("invalid_connection", "the connection was not found")
  static let connectionDisabled = badRequest("invalid_connection", "the connection was disabled")
  static let missingEmail = badRequest("invalid_signup", "Missing required property: email")
  static let invalidEmail = badRequest("invalid_signup", "Object didn't pass validation for format email")
  static let missingPassword = badRequest("invalid_signup", "Missing required property: password")
  /// Observed on real tenants (docs/protocol.md §4.1); 409 on newer docs is UNCONFIRMED.
  static let userExists = badRequest("user_exists", "The user already exists.")
  static let usernameExists = badRequest("username_exists", "The username provided is in use already.")
  /// Enumeration protection hides the cause.
  static let invalidSignup = badRequest("invalid_signup", "Invalid sign up")
  static func invalidMetadata(_ why: String) -> LegacyError { badRequest("invalid_signup", "user_metadata: \(why)") }
  static let requiresVerification = badRequest("requires_verification", "Suspicious request requires verification")

  /// Password Dictionary (docs/protocol.md §4.1 `password_dictionary_error`; `name` and text UNCONFIRMED).
  static let passwordDictionary = LegacyError(
    status: .badRequest, name: "PasswordDictionaryError", code: "password_dictionary_error",
    description: .string(PasswordRuleMessages.dictionary), extra: ["message": .string(PasswordRuleMessages.dictionary)])
  /// Personal Data (docs/protocol.md §4.1 `password_no_user_info_error`; `name` and text UNCONFIRMED).
  static let passwordNoUserInfo = LegacyError(
    status: .badRequest, name: "PasswordNoUserInfoError", code: "password_no_user_info_error",
    description: .string(PasswordRuleMessages.personalInfo),
    extra: ["message": .string(PasswordRuleMessages.personalInfo)])
  /// Password History (docs/protocol.md §4.1, §9: `invalid_password` with `name: PasswordHistoryError`).
  static let passwordHistory = LegacyError(
    status: .badRequest, name: "PasswordHistoryError", code: "invalid_password",
    description: .string(PasswordRuleMessages.history), extra: ["message": .string(PasswordRuleMessages.history)])

  static func passwordStrength(_ policy: PasswordPolicy, rules: Value) -> LegacyError {
    LegacyError(
      status: .badRequest, name: "PasswordStrengthError", code: "invalid_password", description: rules,
      extra: ["message": .string("Password is too weak"), "policy": .string(policy.text)])
  }
}
