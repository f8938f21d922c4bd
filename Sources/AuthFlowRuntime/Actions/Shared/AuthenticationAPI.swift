import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// Builds and sends Authentication API requests the way Auth0.swift does (docs/protocol.md §1): JSON
/// bodies with `Content-Type: application/json`, `client_id` from the scenario's client profile
/// (plus `client_secret` for confidential clients on the endpoints that take it), the
/// `Auth0-Client` telemetry header (Auth0 tenants and the mock only), and `Authorization: Bearer`
/// where the SDK sends it.
struct AuthenticationAPI: Sendable {
  let context: ActionContext

  init(_ context: ActionContext) {
    self.context = context
  }

  /// The scenario client's `client_id`.
  func clientID() throws(ActionError) -> String {
    guard let clientID = context.client.clientID else {
      throw .flow(AuthenticationMessages.noClientID)
    }
    return clientID
  }

  /// The scenario client's secret, when it is a confidential client.
  var clientSecret: String? {
    context.client.clientSecret
  }

  /// `client_id` (and `client_secret` when the client has one), as `/oauth/*` calls send them.
  func clientAuthentication(includeSecret: Bool = true) throws(ActionError) -> [String: Value] {
    var body: [String: Value] = ["client_id": .string(try clientID())]
    if includeSecret, let secret = clientSecret { body["client_secret"] = .secret(.string(secret)) }
    return body
  }

  /// An absolute URL for a path of the tenant as Auth0 names it (`oauth/token`), or the URL
  /// itself when absolute. On an `oidc` tenant standard paths map to the discovered endpoints;
  /// an Auth0-only path is a flow error naming the capability it needs.
  func url(_ path: String) throws(ActionError) -> String {
    switch context.tenant.endpoints.url(forPath: path) {
    case .success(let url): return url
    case .failure(let unavailable): throw .flow(unavailable.message(tenant: context.tenant.name))
    }
  }

  /// `POST` to the token or revocation endpoint, encoded as the tenant expects (`OAuthRequest`):
  /// JSON on `mock`/`auth0`, a form with the client's authentication method on `oidc`.
  func post(_ path: String, oauth body: [String: Value]) async throws(ActionError) -> HTTPResponse {
    var request = OAuthRequest.make(url: try url(path), body: body, context: context)
    decorate(&request, bearer: nil)
    return try await send(request)
  }

  /// `POST` with a JSON body.
  func post(
    _ path: String, json body: [String: Value], bearer: String? = nil
  ) async throws(ActionError)
    -> HTTPResponse
  {
    var request = HTTPRequest.json(.post, url: try url(path), body: .object(body))
    decorate(&request, bearer: bearer)
    return try await send(request)
  }

  /// `POST` with an `application/x-www-form-urlencoded` body (raw `token` calls only).
  func post(_ path: String, form body: [String: Value]) async throws(ActionError) -> HTTPResponse {
    var request = HTTPRequest.form(url: try url(path), fields: OAuthRequest.formFields(body))
    decorate(&request, bearer: nil)
    return try await send(request)
  }

  /// `GET`, with query parameters.
  func get(
    _ path: String, query: [(String, String)] = [], bearer: String? = nil
  ) async throws(ActionError)
    -> HTTPResponse
  {
    var target = try url(path)
    if !query.isEmpty { target += (target.contains("?") ? "&" : "?") + URLParameters(query).queryString() }
    var request = HTTPRequest(method: .get, url: target)
    decorate(&request, bearer: bearer)
    return try await send(request)
  }

  private func decorate(_ request: inout HTTPRequest, bearer: String?) {
    request.headers["Accept"] = "application/json"
    if context.tenant.sendsAuth0Telemetry { request.headers["Auth0-Client"] = Telemetry.header }
    if let bearer { request.headers["Authorization"] = "Bearer \(bearer)" }
  }

  /// Sends through the run's transport; failing to get a response is an environment error.
  func send(_ request: HTTPRequest) async throws(ActionError) -> HTTPResponse {
    do {
      return try await context.transport.send(request)
    } catch {
      throw .environment(AuthenticationMessages.unreachable(request.url, detail: error.message))
    }
  }

  /// `openid` first, as every SDK login-type call sends it; v2's default scope when none is given.
  static func scopeWithOpenID(_ scope: String?) -> String {
    guard let scope, !scope.trimmingCharacters(in: .whitespaces).isEmpty else { return defaultScope }
    let parts = scope.split(separator: " ").map(String.init)
    return parts.contains("openid") ? parts.joined(separator: " ") : (["openid"] + parts).joined(separator: " ")
  }

  /// Auth0.swift v2's default scope.
  static let defaultScope = "openid profile email"

  /// Adds `key` to `body` when `value` is present.
  static func put(_ key: String, _ value: String?, in body: inout [String: Value]) {
    if let value { body[key] = .string(value) }
  }

  /// Revokes a refresh token (`POST /oauth/revoke`, Auth0.swift `revoke(refreshToken:)`): an empty
  /// 200 is `revoked: true` with `response`.
  func revoke(refreshToken: String) async throws(ActionError) -> ActionOutcome {
    var body = try clientAuthentication()
    body["token"] = .secret(.string(refreshToken))
    let response = try await post("oauth/revoke", oauth: body)
    return try AuthenticationResponse.outcome(response, allowEmpty: true) { _ in ["revoked": true] }
  }
}

/// The `Auth0-Client` header (docs/protocol.md §11): base64url, unpadded, of compact JSON naming the
/// library. authflow names itself rather than impersonating an SDK; servers must not require it.
enum Telemetry {
  static let name = "authflow"
  static let version = "0.1.0"

  static let header: String = {
    let json = #"{"name":"\#(name)","version":"\#(version)","env":{"swift":"6.x"}}"#
    return Base64URL.encode(Array(json.utf8))
  }()
}

/// The messages of the Authentication API actions.
enum AuthenticationMessages {
  static let noClientID = "the scenario's client profile has no client_id (set `client:` to a client of the tenant)"

  static func unreachable(_ url: String, detail: String) -> String {
    "could not get a response from \(SensitiveData.maskURL(url)): \(detail)"
  }

  static func serverError(_ status: Int, url: String) -> String {
    "the tenant answered HTTP \(status) for \(SensitiveData.maskURL(url)) (server error)"
  }

  static func notJSON(_ status: Int, url: String) -> String {
    "the tenant answered HTTP \(status) for \(SensitiveData.maskURL(url)) with a body that is not the JSON expected"
  }

  static func missingMember(_ name: String, url: String) -> String {
    "the response of \(SensitiveData.maskURL(url)) has no `\(name)`"
  }

  static let unknownError = "Failed with unknown error"
}
