import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import AuthFlowMockHosting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Synchronization

/// A plain OpenID Provider on loopback, reached only through its discovery document at
/// `{base}/o` (an issuer without a trailing slash): code flow with PKCE S256, client
/// authentication checked as configured, RS256 ID tokens, userinfo. It records every request
/// it gets (path, headers, query, body) so tests can see what authflow sent, and can echo the
/// callback URL into the body of its redirect the ways real providers print it.
final class LoopbackProvider: Sendable {
  /// How the redirect to the callback also shows the URL in its body.
  enum Echo: String, Sendable, CaseIterable {
    case none
    /// `<a href="…callback?code=…&amp;state=…">`, the URL in the text too, as HTML escapes it.
    case html
    /// A script: `location.replace("https:\/\/…?code=…\u0026state=…")`.
    case script
    /// Numeric entities: `…?code&#61;…&#38;state&#61;…`.
    case numericEntities
    /// `{"redirect_to": "…"}`.
    case json
    /// `Redirecting to …`, as text/plain.
    case text
    /// `code=…&state=…`, as `application/x-www-form-urlencoded`.
    case form
  }

  struct Recorded: Sendable {
    var method: String
    var path: String
    var headers: [String: String]
    var query: [String: String]
    var body: String
  }

  struct Configuration: Sendable {
    /// `token_endpoint_auth_methods_supported`; nil leaves it out of discovery.
    var authMethods: [String]?
    var echo: Echo = .none
    /// Whether the callback comes as a 302 `Location`; when false the page in the body is all
    /// there is (a "continue to your app" page), so only the body carries the code.
    var redirects = true
  }

  struct Grant: Sendable {
    var clientID: String
    var redirectURI: String
    var challenge: String
    var nonce: String?
  }

  struct State: Sendable {
    var recorded: [Recorded] = []
    var grants: [String: Grant] = [:]
    var issued: [String] = []
  }

  static let clientID = "rp-client"
  static let clientSecret = "rp-secret-Zq9+/x"
  static let redirect = "https://rp.example.com/callback"

  let configuration: Configuration
  let key: SigningKey
  let state = Mutex(State())

  init(_ configuration: Configuration) throws {
    self.configuration = configuration
    key = try SigningKey.generateRSA(kid: "lp-1")
  }

  /// Every request to a path ending with `suffix`.
  func requests(to suffix: String) -> [Recorded] {
    state.withLock { $0.recorded.filter { $0.path.hasSuffix(suffix) } }
  }

  /// Every code and token the provider issued.
  var issued: [String] { state.withLock { $0.issued } }

  private func record(_ request: Request, body: String) {
    var headers: [String: String] = [:]
    for field in request.headers { headers[field.name.canonicalName] = field.value }  // lowercase names
    var query: [String: String] = [:]
    for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
    let entry = Recorded(
      method: request.method.rawValue, path: request.uri.path, headers: headers, query: query, body: body)
    state.withLock { $0.recorded.append(entry) }
  }

  private func issue(bytes: Int = 24) -> String {
    // Standard base64 (`+`, `/`, `=`): its URL-, form- and JSON-escaped forms all differ from it.
    var generator = SystemRandomNumberGenerator()
    let data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let value = data.base64EncodedString()
    state.withLock { $0.issued.append(value) }
    return value
  }

  func install(on router: Router<BasicRequestContext>) {
    router.get("o/.well-known/openid-configuration") { request, _ in
      self.record(request, body: "")
      let base = "http://\(request.head.authority ?? "")/o"
      var document: [String: Value] = [
        "issuer": .string(base), "authorization_endpoint": .string(base + "/authorize"),
        "token_endpoint": .string(base + "/token"), "jwks_uri": .string(base + "/jwks"),
        "userinfo_endpoint": .string(base + "/userinfo"), "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"], "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
      ]
      if let methods = self.configuration.authMethods {
        document["token_endpoint_auth_methods_supported"] = .array(methods.map(Value.string))
      }
      return Response.json(Value.object(document).jsonText())
    }
    router.get("o/jwks") { request, _ in
      self.record(request, body: "")
      let data = (try? JSONEncoder().encode(JWKSet(keys: [self.key.publicJWK].compactMap { $0 }))) ?? Data()
      return Response.json(String(decoding: data, as: UTF8.self))
    }
    router.get("o/authorize") { request, _ in self.authorize(request) }
    router.post("o/token") { request, _ in
      let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
      self.record(request, body: body)
      return self.token(request, form: URLParameters(parsing: body, decoding: .form))
    }
    // Echoes `text` of a JSON body into a page, HTML-escaped as Django and Python's html.escape do.
    router.post("o/echo") { request, _ in
      let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
      self.record(request, body: body)
      let text = (try? Value(jsonText: body))?.member("text")?.stringValue ?? ""
      let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#x27;")
      var headers = HTTPFields()
      headers[.contentType] = "text/html; charset=utf-8"
      let page = #"<html><body><p>You typed: \#(escaped)</p><input name="note" value="\#(escaped)"></body></html>"#
      return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    router.get("o/userinfo") { request, _ in
      self.record(request, body: "")
      return Response.json(#"{"sub":"user-1","email":"user-1@example.com"}"#)
    }
  }

  private func authorize(_ request: Request) -> Response {
    record(request, body: "")
    let query = request.uri.queryParameters
    guard let clientID = query["client_id"].map(String.init), let redirect = query["redirect_uri"].map(String.init),
      let challenge = query["code_challenge"].map(String.init)
    else { return Response.json(#"{"error":"invalid_request"}"#, status: .badRequest) }
    let code = issue()
    state.withLock {
      $0.grants[code] = Grant(
        clientID: clientID, redirectURI: redirect, challenge: challenge, nonce: query["nonce"].map(String.init))
    }
    let parameters = URLParameters([("code", code), ("state", query["state"].map(String.init) ?? "")])
    let callback = redirect + "?" + parameters.queryString()
    var headers = HTTPFields()
    if configuration.redirects { headers[.location] = callback }
    let body: String
    switch configuration.echo {
    case .none:
      body = ""
    case .html:
      let escaped = callback.replacingOccurrences(of: "&", with: "&amp;")
      headers[.contentType] = "text/html; charset=utf-8"
      body = #"<html><body><p>Redirecting to <a href="\#(escaped)">\#(escaped)</a></p></body></html>"#
    case .script:
      let escaped = callback.replacingOccurrences(of: "/", with: #"\/"#).replacingOccurrences(
        of: "&", with: #"\u0026"#)
      headers[.contentType] = "text/html; charset=utf-8"
      body = #"<html><head><script>window.location.replace("\#(escaped)");</script></head></html>"#
    case .numericEntities:
      let escaped = callback.replacingOccurrences(of: "&", with: "&#38;").replacingOccurrences(of: "=", with: "&#61;")
      headers[.contentType] = "text/html; charset=utf-8"
      body = "<html><body><p>Continue at \(escaped)</p></body></html>"
    case .json:
      headers[.contentType] = "application/json"
      body = Value.object(["redirect_to": .string(callback)]).jsonText()
    case .text:
      headers[.contentType] = "text/plain; charset=utf-8"
      body = "Redirecting to \(callback)\n"
    case .form:
      headers[.contentType] = "application/x-www-form-urlencoded"
      body = parameters.formEncoded()
    }
    return Response(
      status: configuration.redirects ? .found : .ok, headers: headers,
      body: .init(byteBuffer: ByteBuffer(string: body)))
  }

  /// The client authentication the request used, when it is right: Basic, or the secret in the
  /// body, or a public client's bare `client_id`.
  private func authenticatedClient(_ request: Request, form: URLParameters) -> (id: String, method: String)? {
    if let header = request.headers[.authorization], header.hasPrefix("Basic ") {
      guard let decoded = Data(base64Encoded: String(header.dropFirst(6))),
        let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
      else { return nil }
      let id = PercentEncoding.decode(text[..<colon], plusAsSpace: true)
      let secret = PercentEncoding.decode(text[text.index(after: colon)...], plusAsSpace: true)
      guard id == Self.clientID, secret == Self.clientSecret, form["client_secret"] == nil else { return nil }
      return (id, "client_secret_basic")
    }
    guard form["client_id"] == Self.clientID else { return nil }
    guard let secret = form["client_secret"] else { return (Self.clientID, "none") }
    return secret == Self.clientSecret ? (Self.clientID, "client_secret_post") : nil
  }

  private func token(_ request: Request, form: URLParameters) -> Response {
    guard let client = authenticatedClient(request, form: form) else {
      return Response.json(#"{"error":"invalid_client"}"#, status: .unauthorized)
    }
    // A provider that lists its methods enforces them; one whose discovery is silent takes any.
    if let methods = configuration.authMethods, client.method != "none", !methods.contains(client.method) {
      return Response.json(
        #"{"error":"invalid_client","error_description":"method not allowed"}"#, status: .unauthorized)
    }
    guard form["grant_type"] == "authorization_code", let code = form["code"],
      let grant = state.withLock({ $0.grants.removeValue(forKey: code) }), grant.clientID == client.id,
      grant.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
      PKCE.verify(verifier: verifier, challenge: grant.challenge, method: .s256)
    else { return Response.json(#"{"error":"invalid_grant"}"#, status: .badRequest) }
    let issuer = "http://\(request.head.authority ?? "")/o"
    let now = Int(Date().timeIntervalSince1970)
    var claims: [String: Value] = [
      "iss": .string(issuer), "sub": "user-1", "aud": .string(client.id), "iat": .int(now), "exp": .int(now + 600),
    ]
    if let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
    guard let idToken = try? key.sign(claims: claims) else {
      return Response.json(#"{"error":"server_error"}"#, status: .internalServerError)
    }
    let accessToken = issue(bytes: 30)
    state.withLock { $0.issued.append(idToken) }
    let body: Value = [
      "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 300, "id_token": .string(idToken),
    ]
    return Response.json(body.jsonText())
  }

  /// `authflow.yaml` with one `oidc` tenant `op` at `{base}/o` whose client `rp` is confidential;
  /// `method` sets its `token_endpoint_auth_method`.
  static func profileYAML(base: String, method: String? = nil) -> String {
    """
    tenants:
      op:
        kind: oidc
        issuer: \(base)/o
        clients:
          rp:
            client_id: \(clientID)
            client_secret: "\(clientSecret)"
            redirect_uri: \(redirect)
    \(method.map { "        token_endpoint_auth_method: \($0)" } ?? "")
    """
  }

  /// Starts a provider, runs `body` with it and its base URL, and stops it.
  static func with<T: Sendable>(
    _ configuration: Configuration, _ body: (LoopbackProvider, String) async throws -> T
  ) async throws -> T {
    let provider = try LoopbackProvider(configuration)
    return try await LoopbackServer.with({ provider.install(on: $0) }) { base in try await body(provider, base) }
  }

  /// The `op` tenant of `yaml`, resolved through discovery over `transport`.
  static func resolve(
    _ yaml: String, transport: any HTTPTransport, secrets: SecretRegistry
  ) async throws -> ResolvedTenant {
    let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    guard let profile = config?.tenant(named: "op"), !diagnostics.hasErrors else {
      throw ScenarioHarness.InvalidScenario(description: "\(diagnostics.map(\.description))")
    }
    let resolver = TenantResolver(
      embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".", transport: transport)
    do {
      return try await resolver.resolve(profile)
    } catch {
      throw ScenarioHarness.InvalidScenario(description: error.message)
    }
  }

  /// Runs `yamls` on `tenant` with `transport`; the reporters' observer, when given, sees the run.
  static func run(
    _ yamls: [String], on tenant: TenantContext, transport: any HTTPTransport, secrets: SecretRegistry,
    observer: (any RunObserver)? = nil
  ) async throws -> RunReport {
    let instances = try yamls.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "scenario\(index).yaml").instances
    }
    let services = RunServices(secrets: secrets, transport: transport, environment: [:])
    return await Runner(tenant: tenant, services: services, functions: Pipeline.functions, jobs: 1, observer: observer)
      .run(instances)
  }
}
