import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// The `/oauth/token` exchange of Web Auth and the credentials result it gives.
enum TokenResponse {
  /// Sends `body` to the token endpoint, as JSON (docs/protocol.md §1) or as a form on `oidc` tenants
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
    // The body is parsed, and its tokens decoded, once: the step's `http` result holds it with
    // its secrets tagged (JWTs as JWT values), and the credentials are read from it.
    let members = HTTPResult.value(of: response)
    let http = Value.object(members)
    guard let json = members["body"]?.objectValue else {
      throw .environment(WebAuthMessages.badTokenResponse(response.status))
    }
    guard (200..<300).contains(response.status) else {
      if response.status >= 500 { throw .environment(WebAuthMessages.badTokenResponse(response.status)) }
      context.report(TokenResponseRules.errorFindings(in: response))
      let code = json["error"]?.stringValue ?? json["code"]?.stringValue ?? "unknown"
      let description = json["error_description"]?.stringValue ?? json["description"]?.stringValue
      let error = ProtocolError(
        code: code, description: description, status: response.status, body: .object(json))
      return ([:], http, error)
    }
    context.report(TokenResponseRules.findings(in: json))
    return (credentials(json.mapValues { $0 }), http, nil)
  }

  /// Token members as a credentials result: tokens secret (JWT values where they are JWTs),
  /// `expires_in` an integer, `expires_at` computed. The members may be tagged already
  /// (``AuthFlowCore/Value/taggingSecrets()``): a token that is a JWT value is kept, not decoded again.
  static func credentials(_ members: [String: Value]) -> [String: Value] {
    var result: [String: Value] = [:]
    for name in ["access_token", "id_token", "refresh_token"] {
      guard let member = members[name] else { continue }
      if case .jwt = member.unwrapped {
        result[name] = member.unwrapped
      } else if let text = member.stringValue {
        result[name] = JWTValue(raw: text).map(Value.jwt) ?? Value.string(text).asSecret
      }
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
