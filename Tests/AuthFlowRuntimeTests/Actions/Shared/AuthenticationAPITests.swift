import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import AuthFlowTestSupport
import Hummingbird
import Testing

/// The Authentication API actions against a server that answers what a test needs: both error
/// envelopes, plain-text errors, server errors and unreachable tenants.
@Suite("Authentication API error mapping and secrets")
struct AuthenticationAPITests {
  /// A server whose `/oauth/token` and `/dbconnections/signup` answer from fixed bodies.
  static func withServer<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
    try await LoopbackServer.with(
      { router in
        router.post("oauth/token") { request, context in
          let text = String(buffer: try await request.body.collect(upTo: 1 << 16))
          if text.contains("\"oauth-error\"") {
            return Response.json(
              #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#, status: .forbidden)
          }
          if text.contains("\"plain-error\"") {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain"
            return Response(
              status: .unauthorized, headers: fields, body: .init(byteBuffer: ByteBuffer(string: "Unauthorized")))
          }
          if text.contains("\"server-error\"") {
            return Response.json(#"{"error":"server_error"}"#, status: .badGateway)
          }
          if text.contains("\"legacy-error\"") {
            return Response.json(
              #"{"name":"PasswordStrengthError","code":"invalid_password","description":{"rules":[],"verified":false},"message":"Password is too weak","statusCode":400}"#,
              status: .badRequest)
          }
          if text.contains("\"no-code\"") { return Response.json(#"{"unexpected":true}"#, status: .badRequest) }
          return Response.json(
            #"{"access_token":"opaque-access-token-abcdef","refresh_token":"opaque-refresh-token-ghijkl","token_type":"Bearer","expires_in":"3600"}"#
          )
        }
        router.post("dbconnections/signup") { _, _ in
          Response.json(
            #"{"name":"PasswordStrengthError","code":"invalid_password","description":{"rules":[],"verified":false},"message":"Password is too weak","statusCode":400}"#,
            status: .badRequest)
        }
      }, body)
  }

  static func harness(_ base: String) -> ScenarioHarness {
    var harness = ScenarioHarness(baseURL: base)
    harness.clients = ["native": ["client_id": "test-client"]]
    return harness
  }

  static func login(password: String) -> String {
    """
    scenario: login
    client: native
    steps:
      - id: login
        login: { username: someone@example.com, password: \(password) }
        expect:
          error.code: { exists: true }
    """
  }

  @Test("The OAuth envelope maps error and error_description")
  func oauthEnvelope() async throws {
    let report = try await Self.withServer { base in
      try await Self.harness(base).run(Self.login(password: "oauth-error"))
    }
    let error = try #require(report.step("login")?.result?.member("error"))
    #expect(error.member("code") == "invalid_grant")
    #expect(error.member("description") == "Wrong email or password.")
    #expect(error.member("status") == 403)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("The legacy envelope maps code; an object description falls back to message")
  func legacyEnvelope() async throws {
    let yaml = """
      scenario: signup
      client: native
      steps:
        - id: signup
          signup: { email: a@example.com, password: weak }
          expect:
            error.code: invalid_password
            error.description: Password is too weak
            error.body.name: PasswordStrengthError
            error.status: 400
      """
    let legacy = try await Self.withServer { base in
      try await Self.harness(base).run(Self.login(password: "legacy-error"))
    }
    let error = try #require(legacy.step("login")?.result?.member("error"))
    #expect(error.member("code") == "invalid_password")
    #expect(error.member("description") == "Password is too weak")
    #expect(error.member("body")?.member("name") == "PasswordStrengthError")
    // The same mapping through `signup` (registered: the mock has `/dbconnections/signup`); not a
    // silent early return if it ever goes missing.
    try #require(ActionRegistry.action(named: "signup") != nil, "the signup action is not registered")
    let report = try await Self.withServer { base in try await Self.harness(base).run(yaml) }
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("A JSON error without a code is a0.sdk.internal_error.unknown")
  func unknownError() async throws {
    let report = try await Self.withServer { base in try await Self.harness(base).run(Self.login(password: "no-code")) }
    let error = try #require(report.step("login")?.result?.member("error"))
    #expect(error.member("code") == "a0.sdk.internal_error.unknown")
    #expect(error.member("status") == 400)
  }

  @Test("A non-JSON error body is a0.sdk.internal_error.plain with the text")
  func plainError() async throws {
    let report = try await Self.withServer { base in
      try await Self.harness(base).run(Self.login(password: "plain-error"))
    }
    let error = try #require(report.step("login")?.result?.member("error"))
    #expect(error.member("code") == "a0.sdk.internal_error.plain")
    #expect(error.member("description") == "Unauthorized")
    #expect(error.member("status") == 401)
  }

  @Test("5xx is an environment error, not a protocol error")
  func serverError() async throws {
    let report = try await Self.withServer { base in
      try await Self.harness(base).run(Self.login(password: "server-error"))
    }
    #expect(report.status == .error, "\(report.problemSummary)")
    #expect(report.problemSummary.contains("HTTP 502"))
  }

  @Test("An unreachable tenant is an environment error")
  func unreachable() async throws {
    let report = try await Self.harness("http://127.0.0.1:9").run(Self.login(password: "x"))
    #expect(report.status == .error, "\(report.problemSummary)")
  }

  @Test("Credentials: tokens are secrets, expires_in a number, expires_at in the future")
  func credentialsAreSecret() async throws {
    let yaml = """
      scenario: login
      client: native
      steps:
        - id: login
          login: { username: someone@example.com, password: right-password }
          expect:
            expires_in: 3600
            expires_at: { gt: "${{ now() + 3590 }}" }
      """
    let secrets = SecretRegistry()
    let report = try await Self.withServer { base in
      var harness = Self.harness(base)
      harness.secrets = secrets
      return try await harness.run(yaml)
    }
    #expect(report.status == .passed, "\(report.problemSummary)")
    let result = try #require(report.step("login")?.result)
    #expect(result.member("access_token")?.isSecret == true)
    #expect(result.member("refresh_token")?.isSecret == true)
    let shown = result.jsonText(revealSecrets: false)
    #expect(!shown.contains("opaque-access-token-abcdef"))
    #expect(!shown.contains("opaque-refresh-token-ghijkl"))
    #expect(!shown.contains("right-password"))
    #expect(secrets.scrub("x opaque-refresh-token-ghijkl y") == "x *** y")
  }
}
