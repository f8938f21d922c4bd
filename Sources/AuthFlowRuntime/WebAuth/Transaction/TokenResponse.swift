import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// The `/oauth/token` exchange of Web Auth and the credentials result it gives.
enum TokenResponse {
  /// Sends `body` to the token endpoint, as JSON (PROTOCOL §1) or as a form on `oidc` tenants
  /// (`OAuthRequest`), and returns the credentials, or the protocol error.
  static func exchange(
    _ body: [String: Value], telemetry: String?, context: ActionContext
  ) async throws(ActionError) -> (credentials: [String: Value], response: Value, error: ProtocolError?) {
    var headers: HTTPHeaderFields = ["Accept": "application/json"]
    if let telemetry { headers["Auth0-Client"] = telemetry }
    let url = try AuthenticationAPI(context).url("oauth/token")
    let request = OAuthRequest.make(url: url, body: body, headers: headers, context: context)
    let response: HTTPResponse
    do {
      response = try await context.transport.send(request)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    let http = Value.object(HTTPResult.value(of: response))
    guard let json = response.jsonValue?.objectValue else {
      throw .environment(WebAuthMessages.badTokenResponse(response.status))
    }
    guard (200..<300).contains(response.status) else {
      if response.status >= 500 { throw .environment(WebAuthMessages.badTokenResponse(response.status)) }
      let code = json["error"]?.stringValue ?? json["code"]?.stringValue ?? "unknown"
      let description = json["error_description"]?.stringValue ?? json["description"]?.stringValue
      let error = ProtocolError(
        code: code, description: description, status: response.status, body: Value.object(json).taggingSecrets())
      return ([:], http, error)
    }
    return (credentials(json.mapValues { $0 }), http, nil)
  }

  /// Token members as a credentials result: tokens secret (JWT values where they are JWTs),
  /// `expires_in` an integer, `expires_at` computed.
  static func credentials(_ members: [String: Value]) -> [String: Value] {
    var result: [String: Value] = [:]
    for name in ["access_token", "id_token", "refresh_token"] {
      guard let text = members[name]?.stringValue else { continue }
      result[name] = JWTValue(raw: text).map(Value.jwt) ?? Value.string(text).asSecret
    }
    for name in ["token_type", "scope"] {
      if let text = members[name]?.stringValue { result[name] = .string(text) }
    }
    if let seconds = members["expires_in"]?.intValue ?? members["expires_in"]?.stringValue.flatMap(Int.init) {
      result["expires_in"] = .int(seconds)
      result["expires_at"] = .int(Int(Date().timeIntervalSince1970) + seconds)
    }
    return result
  }
}
