import AuthFlowCore
import AuthFlowHTTP
import AuthFlowScenario
import Foundation

/// The JSON requests of the passkey actions (docs/protocol.md §1: JSON bodies, `Auth0-Client`-free here)
/// and how their answers become step results.
enum PasskeyExchange {
  static let realm = Parameter<String>(
    "realm", summary: "Database connection (default: the tenant's default directory).")
  static let organization = Parameter<String>("organization", summary: "Organization id or name.")
  static let audience = Parameter<String>("audience", summary: "API audience of the access token.")
  static let scope = Parameter<String>(
    "scope", summary: "Scope; `openid` is added when missing (default `openid profile email`).")
  static let authenticator = Parameter<String>(
    "authenticator",
    summary: "The virtual authenticator's name (default `default`); it keeps its passkeys for the scenario.")
  static let origin = Parameter<String>(
    "origin", summary: "The origin the authenticator reports (default `https://<rpId>`).")

  /// The parameters `passkey_signup` and `passkey_login` share.
  static let commonParameters: [any ParameterDeclaration] = [
    realm, organization, audience, scope, authenticator, origin,
  ]

  /// The parsed answer of one JSON request.
  struct Answer {
    var status: Int
    var headers: HTTPHeaderFields
    var body: Value
    var response: Value
  }

  /// POSTs (or sends with `method`) a JSON body to a path of the tenant.
  static func send(
    _ method: HTTPMethod = .post, path: String, body: Value?, bearer: String? = nil, in context: ActionContext
  ) async throws(ActionError) -> Answer {
    let url = try AuthenticationAPI(context).url(path)
    var request =
      body.map { HTTPRequest.json(method, url: url, body: $0) } ?? HTTPRequest(method: method, url: url)
    request.headers["Accept"] = "application/json"
    if let bearer { request.headers["Authorization"] = "Bearer \(bearer)" }
    let response: HTTPResponse
    do {
      response = try await context.transport.send(request)
    } catch {
      throw .environment("\(method.rawValue) \(url): \(error.message)")
    }
    if response.status >= 500 {
      throw .environment("\(method.rawValue) \(url) answered \(response.status)")
    }
    let parsed = response.jsonValue?.taggingSecrets() ?? .string(response.bodyText)
    return Answer(
      status: response.status, headers: response.headers, body: parsed,
      response: .object(HTTPResult.value(of: response)))
  }

  /// A protocol error from a non-2xx answer, reading any of the envelopes of docs/protocol.md §1.
  static func protocolError(_ answer: Answer) -> ActionOutcome {
    let body = answer.body
    let code =
      body.member("errorCode")?.stringValue ?? body.member("error")?.stringValue ?? body.member("code")?.stringValue
      ?? body.member("type")?.stringValue ?? "a0.sdk.internal_error.plain"
    let description =
      body.member("error_description")?.stringValue ?? body.member("description")?.stringValue
      ?? body.member("message")?.stringValue ?? body.member("detail")?.stringValue ?? body.stringValue
    return .protocolError(
      ProtocolError(code: code, description: description, status: answer.status, body: body),
      result: .object(["response": answer.response]))
  }

  /// A successful token response as a credentials result (docs/design.md §2.1).
  static func credentials(_ answer: Answer, extra: [String: Value] = [:]) -> Value {
    var result = answer.body.objectValue ?? [:]
    if let expiresIn = result["expires_in"]?.intValue ?? result["expires_in"]?.stringValue.flatMap({ Int($0) }) {
      result["expires_at"] = .int(Int(Date().timeIntervalSince1970) + expiresIn)
    }
    result["response"] = answer.response
    result.merge(extra) { _, new in new }
    return .object(result)
  }

  /// The scope the SDK sends: `openid` prepended when missing.
  static func scope(_ requested: String?) -> String {
    let scope = requested ?? "openid profile email"
    return scope.split(separator: " ").contains("openid") ? scope : "openid " + scope
  }

  /// The token request completing a passkey ceremony (`urn:okta:params:oauth:grant-type:webauthn`).
  static func tokenBody(
    authSession: Value, authnResponse: Value, input: Parameters, context: ActionContext
  ) throws(ActionError) -> Value {
    var body: [String: Value] = [
      "grant_type": .string("urn:okta:params:oauth:grant-type:webauthn"),
      "client_id": context.client.clientID.map(Value.string) ?? .null, "auth_session": authSession,
      "authn_response": authnResponse, "scope": .string(scope(try input[Self.scope])),
    ]
    if let secret = context.client.clientSecretValue { body["client_secret"] = secret }
    for parameter in [realm, audience, organization] {
      if let value = try input[parameter] { body[parameter.name] = .string(value) }
    }
    return .object(body)
  }

  /// The relying party's origin as a native app's platform authenticator reports it.
  static func origin(rpID: String, input: Parameters) throws(ActionError) -> String {
    try input[origin] ?? "https://\(rpID)"
  }
}
