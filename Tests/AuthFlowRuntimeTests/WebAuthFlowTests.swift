import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

/// `web_auth` and `validate_id_token` against a small OpenID Provider on loopback that can
/// misbehave on purpose (wrong state, wrong nonce, identifier-first pages, rotating keys).
@Suite("Web Auth against a misbehaving provider")
struct WebAuthFlowTests {
  enum Mode: Sendable { case normal, wrongState, wrongNonce, identifierFirst }

  final class Provider: Sendable {
    struct State: Sendable {
      var mode: Mode = .normal
      var issuer = ""
      var nonce = ""
      var state = ""
      var jwksFetches = 0
      var tokenBody = ""
    }
    let state = Mutex(State())
    let keyA: SigningKey
    let keyB: SigningKey
    static let redirect = "com.test.app://127.0.0.1/callback"

    init() throws {
      keyA = try SigningKey.generateRSA(kid: "key-a")
      keyB = try SigningKey.generateRSA(kid: "key-b")
    }

    func idToken(key: SigningKey, nonce: String?, issuer fixed: String? = nil) throws -> String {
      let issuer = fixed ?? state.withLock { $0.issuer }
      let now = Int(Date().timeIntervalSince1970)
      var claims: [String: Value] = [
        "iss": .string(issuer), "sub": .string("user-1"), "aud": .string("test-client"), "iat": .int(now),
        "exp": .int(now + 600), "email": .string("alice@example.com"),
      ]
      if let nonce { claims["nonce"] = .string(nonce) }
      return try key.sign(claims: claims)
    }

    func install(on router: Router<BasicRequestContext>) {
      let keyA = self.keyA
      let keyB = self.keyB
      router.get("/.well-known/jwks.json") { _, _ in
        let fetches = self.state.withLock { state in
          state.jwksFetches += 1
          return state.jwksFetches
        }
        let keys = (fetches == 1 ? [keyA] : [keyA, keyB]).compactMap(\.publicJWK)
        let data = (try? JSONEncoder().encode(JWKSet(keys: keys))) ?? Data()
        return Response.json(String(decoding: data, as: UTF8.self))
      }
      router.get("/authorize") { request, _ in
        let query = request.uri.queryParameters
        let (mode, sentState) = self.state.withLock { current in
          current.nonce = query["nonce"].map(String.init) ?? ""
          current.state = query["state"].map(String.init) ?? ""
          return (current.mode, current.state)
        }
        switch mode {
        case .wrongState: return Self.redirect(to: "\(Self.redirect)?code=c1&state=not-the-state")
        case .identifierFirst: return Self.redirect(to: "/u/login/identifier")
        case .normal, .wrongNonce: return Self.redirect(to: "\(Self.redirect)?code=c1&state=\(sentState)")
        }
      }
      router.get("/u/login/identifier") { _, _ in
        Self.html(
          #"<form method="post" action="/u/login/identifier"><input type="hidden" name="_csrf" value="csrf-1"><input name="user_email"><button type="submit">Continue</button></form>"#
        )
      }
      router.post("/u/login/identifier") { request, _ in
        let form = try await Self.form(request)
        guard form["_csrf"] == "csrf-1", form["user_email"] == "alice@example.com" else {
          return Self.html(#"<p id="error-code">invalid_request</p><p id="error-message">bad identifier</p>"#)
        }
        return Self.redirect(to: "/u/login/password")
      }
      router.get("/u/login/password") { _, _ in
        Self.html(
          #"<form method="post" action="/u/login/password"><input type="hidden" name="_csrf" value="csrf-2"><input type="password" name="password"><button type="submit">Log in</button></form>"#
        )
      }
      router.post("/u/login/password") { request, _ in
        let form = try await Self.form(request)
        guard form["_csrf"] == "csrf-2", form["password"] == "secret-pw" else {
          return Self.html(#"<p id="error-code">access_denied</p><p id="error-message">bad password</p>"#)
        }
        let sent = self.state.withLock { $0.state }
        return Self.redirect(to: "\(Self.redirect)?code=c1&state=\(sent)")
      }
      router.post("/oauth/token") { request, _ in
        let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
        let (mode, nonce) = self.state.withLock { current in
          current.tokenBody = body
          return (current.mode, current.nonce)
        }
        let token = try self.idToken(key: keyA, nonce: mode == .wrongNonce ? "other-nonce" : nonce)
        return Response.json(
          #"{"access_token":"opaque-access","id_token":"\#(token)","token_type":"Bearer","expires_in":60}"#)
      }
    }

    static func redirect(to location: String) -> Response {
      Response(status: .found, headers: [.location: location])
    }

    static func html(_ body: String) -> Response {
      var fields = HTTPFields()
      fields[.contentType] = "text/html; charset=utf-8"
      return Response(
        status: .ok, headers: fields,
        body: .init(byteBuffer: ByteBuffer(string: "<html><head><title>IdP</title></head><body>\(body)</body></html>")))
    }

    static func form(_ request: Request) async throws -> [String: String] {
      let text = String(buffer: try await request.body.collect(upTo: 1 << 16))
      return URLParameters(parsing: text, decoding: .form).dictionary
    }
  }

  static func run(
    _ provider: Provider, mode: Mode, settings: [String: Value] = [:], _ yaml: String
  ) async throws -> ScenarioReport {
    provider.state.withLock { $0.mode = mode }
    return try await LoopbackServer.with({ provider.install(on: $0) }) { base in
      provider.state.withLock { $0.issuer = base + "/" }
      var harness = ScenarioHarness(baseURL: base)
      harness.clients = [
        "app": .object(["client_id": .string("test-client"), "redirect_uri": .string(Provider.redirect)])
      ]
      harness.settings = settings
      return try await harness.run(yaml)
    }
  }

  static func messages(_ report: ScenarioReport) -> [String] {
    report.steps.flatMap(\.problems).map(\.message)
  }

  @Test("A callback whose state differs fails with \"Invalid callback URL\" and no code exchange")
  func stateMismatch() async throws {
    let provider = try Provider()
    let report = try await Self.run(
      provider, mode: .wrongState,
      """
      scenario: state
      client: app
      steps:
        - id: login
          web_auth: {}
      """)
    #expect(report.status == .failed)
    let message = try #require(Self.messages(report).first)
    #expect(message.hasPrefix("Invalid callback URL: \(Provider.redirect)?code="), "\(message)")
    #expect(provider.state.withLock { $0.tokenBody }.isEmpty)
  }

  @Test("A code flow sends a JSON token request with the verifier and validates the ID token")
  func codeExchange() async throws {
    let provider = try Provider()
    let report = try await Self.run(
      provider, mode: .normal,
      """
      scenario: ok
      client: app
      steps:
        - id: login
          web_auth: {}
          expect:
            id_token_valid: true
            id_token.claims.email: alice@example.com
            pages: [callback]
      """)
    #expect(report.status == .passed, "\(Self.messages(report))")
    let body = try Value(json: Data(provider.state.withLock { $0.tokenBody }.utf8))
    #expect(body.member("grant_type")?.stringValue == "authorization_code")
    #expect(body.member("client_id")?.stringValue == "test-client")
    #expect(body.member("code")?.stringValue == "c1")
    #expect(body.member("code_verifier")?.stringValue?.count == 43)
    #expect(body.member("redirect_uri")?.stringValue == Provider.redirect)
  }

  @Test("An ID token with another nonce fails the step with docs/protocol.md §5's message unless expected")
  func nonceMismatch() async throws {
    let provider = try Provider()
    let failing = try await Self.run(
      provider, mode: .wrongNonce,
      """
      scenario: nonce
      client: app
      steps:
        - id: login
          web_auth: {}
      """)
    #expect(failing.status == .failed)
    let message = try #require(Self.messages(failing).first)
    #expect(message.hasPrefix("Nonce (nonce) claim value mismatch in the ID token; expected ("), "\(message)")
    #expect(message.hasSuffix("), found (other-nonce)"))
    let expected = try await Self.run(
      provider, mode: .wrongNonce,
      """
      scenario: nonce expected
      client: app
      steps:
        - id: login
          web_auth: {}
          expect:
            id_token_valid: false
            id_token_error: { contains: "found (other-nonce)" }
      """)
    #expect(expected.status == .passed, "\(Self.messages(expected))")
  }

  @Test("Identifier-first pages: each takes the fields it has; a `forms` override names the identifier field")
  func identifierFirst() async throws {
    let provider = try Provider()
    let yaml = """
      scenario: identifier first
      client: app
      steps:
        - id: login
          web_auth:
            login: { email: alice@example.com, password: secret-pw }
          expect:
            pages: [login, login, callback]
            id_token_valid: true
      """
    let report = try await Self.run(
      provider, mode: .identifierFirst, settings: ["forms": .object(["email": .string("user_email")])], yaml)
    #expect(report.status == .passed, "\(Self.messages(report))")
    let without = try await Self.run(provider, mode: .identifierFirst, yaml)
    #expect(without.status == .failed, "without the override the identifier field is not filled")
  }

  static let issuer = "https://issuer.test/"

  @Test("The JWKS is fetched once per run and refetched once for an unknown kid")
  func jwksRefetch() async throws {
    let provider = try Provider()
    let tokenA = try provider.idToken(key: provider.keyA, nonce: nil, issuer: Self.issuer)
    let tokenB = try provider.idToken(key: provider.keyB, nonce: nil, issuer: Self.issuer)
    let unknown = try SigningKey.generateRSA(kid: "key-c")
    let tokenC = try provider.idToken(key: unknown, nonce: nil, issuer: Self.issuer)
    let report = try await Self.run(
      provider, mode: .normal,
      """
      scenario: keys
      client: app
      steps:
        - id: a
          validate_id_token: { issuer: "\(Self.issuer)", id_token: "\(tokenA)" }
          expect: { id_token_valid: true }
        - id: a_again
          validate_id_token: { issuer: "\(Self.issuer)", id_token: "\(tokenA)" }
          expect: { id_token_valid: true }
        - id: b
          validate_id_token: { issuer: "\(Self.issuer)", id_token: "\(tokenB)" }
          expect: { id_token_valid: true }
        - id: c
          validate_id_token: { issuer: "\(Self.issuer)", id_token: "\(tokenC)" }
          expect: { id_token_error: 'Could not find a public key for Key ID (kid) "key-c"' }
      """)
    #expect(report.status == .passed, "\(Self.messages(report))")
    // a: first fetch; a_again: cached; b: one refetch (key-b appears); c: one refetch, still unknown.
    #expect(provider.state.withLock { $0.jwksFetches } == 3)
  }
}
