import AuthFlowCore
import AuthFlowHTTP

/// Reads Authentication API responses as Auth0.swift does (docs/protocol.md §1): 200–299 is success,
/// 5xx is the environment's fault, anything else an error in either envelope.
enum AuthenticationResponse {
  /// The raw exchange, as a step's `response`.
  static func raw(_ response: HTTPResponse) -> Value {
    .object(HTTPResult.value(of: response))
  }

  /// The outcome of a call whose success body is JSON (or empty, when `allowEmpty`): `build`
  /// turns the JSON body into the step's result; `response` is added to it.
  static func outcome(
    _ response: HTTPResponse, allowEmpty: Bool = false,
    build: ([String: Value]) throws(ActionError) -> [String: Value] = { $0 }
  ) throws(ActionError) -> ActionOutcome {
    let raw = raw(response)
    if response.status >= 500, !isDocumentedServerError(response) {
      throw .environment(AuthenticationMessages.serverError(response.status, url: response.url))
    }
    guard (200..<300).contains(response.status) else {
      return .protocolError(error(response), result: ["response": raw])
    }
    var members: [String: Value]
    if let json = response.jsonValue?.taggingSecrets() {
      guard let object = json.objectValue else {
        throw .environment(AuthenticationMessages.notJSON(response.status, url: response.url))
      }
      members = object
    } else if response.body.isEmpty || allowEmpty {
      guard allowEmpty, response.status == 200 || response.status == 204 else {
        throw .environment(AuthenticationMessages.notJSON(response.status, url: response.url))
      }
      members = [:]
    } else {
      throw .environment(AuthenticationMessages.notJSON(response.status, url: response.url))
    }
    members = try build(members)
    members["response"] = raw
    return .success(.object(members))
  }

  /// 501 with an OAuth error body is a documented protocol answer (`unsupported_grant_type`,
  /// docs/protocol.md §3.7), not the environment failing.
  static func isDocumentedServerError(_ response: HTTPResponse) -> Bool {
    response.status == 501 && response.jsonValue?.member("error")?.stringValue != nil
  }

  /// An error response as the SDK reads it: code from `error`, else `code`; description from
  /// `description`, else `error_description` (else the legacy `message`); a non-JSON body is
  /// `a0.sdk.internal_error.plain` with the text as its description.
  static func error(_ response: HTTPResponse) -> ProtocolError {
    guard let json = response.jsonValue, let members = json.objectValue else {
      return ProtocolError(
        code: "a0.sdk.internal_error.plain", description: response.bodyText, status: response.status,
        body: .string(response.bodyText))
    }
    let body = json.taggingSecrets()
    let code = members["error"]?.stringValue ?? members["code"]?.stringValue
    let description =
      members["description"]?.stringValue ?? members["error_description"]?.stringValue
      ?? members["message"]?.stringValue
    guard let code else {
      return ProtocolError(
        code: "a0.sdk.internal_error.unknown", description: description ?? AuthenticationMessages.unknownError,
        status: response.status, body: body)
    }
    return ProtocolError(code: code, description: description, status: response.status, body: body)
  }

  /// A token response (docs/protocol.md §3.2) as a credentials result: tokens secret (JWT values where
  /// they are JWTs), `expires_in` as an int (numeric strings accepted, as the SDK does), and
  /// `expires_at` = `now` + `expires_in`.
  static func credentials(_ members: [String: Value], now: Double) -> [String: Value] {
    var result = members
    for key in ["access_token", "id_token", "refresh_token", "recovery_code"] {
      guard let member = members[key], !member.isNull else { continue }
      if case .jwt = member { continue }
      if let text = member.stringValue, let token = JWTValue(raw: text) {
        result[key] = .jwt(token)
      } else {
        result[key] = member.asSecret
      }
    }
    let expiresIn = members["expires_in"]?.intValue ?? members["expires_in"]?.stringValue.flatMap { Int($0) }
    if let expiresIn {
      result["expires_in"] = .int(expiresIn)
      result["expires_at"] = .int(Int(now.rounded(.down)) + expiresIn)
    }
    return result
  }
}
