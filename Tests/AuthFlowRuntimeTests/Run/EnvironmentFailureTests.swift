import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Synchronization
import Testing

/// Refused connections, timeouts and 5xx are environment failures (status `error`, exit 3); a 4xx
/// protocol error stays an assertion failure (exit 1); a 429 is waited out (Issue 5), and one that
/// outlasts the retries is the environment too.
@Suite struct EnvironmentFailureTests {
  static let confidential: [String: Value] = [
    "native": .object([
      "client_id": .string("client-abc"), "client_secret": .secret(.string("s3cr3t-client-secret-value")),
    ])
  ]

  static let tokenScenario = tokenRequest(named: "A raw token request", expecting: "access_token: { exists: true }")

  /// A client-credentials token request whose step expects `expectation` (one line).
  static func tokenRequest(named name: String, expecting expectation: String) -> String {
    """
    scenario: \(name)
    client: native
    steps:
      - id: token
        token:
          body: { grant_type: client_credentials, audience: "https://api.example.com" }
        expect:
          \(expectation)
    """
  }

  /// A port nothing listens on: one a loopback server just let go of.
  static func closedPort() async throws -> String {
    try await LoopbackServer.with({ _ in }) { base in base }
  }

  @Test("A refused connection is an environment error naming the URL, without secrets; exit 3")
  func refusedConnection() async throws {
    let base = try await Self.closedPort()
    var harness = ScenarioHarness(baseURL: base + "/")
    harness.clients = Self.confidential
    let report = try await harness.run([Self.tokenScenario])
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .error, "\(scenario.problemSummary)")
    let problem = try #require(scenario.step("token")?.problems.first)
    #expect(problem.kind == .environment)
    let host = String(base.dropFirst("http://".count))
    #expect(problem.message.contains(host), "\(problem.message)")
    #expect(!problem.message.contains("s3cr3t"))
    #expect(report.exitCode == .environment)
  }

  @Test("5xx from the token endpoint is an environment error; a 4xx protocol error is a failure")
  func serverErrorVersusProtocolError() async throws {
    let reports = try await LoopbackServer.with({ router in
      router.post("/unavailable/oauth/token") { _, _ in
        Response.json(#"{"error":"temporarily_unavailable"}"#, status: .serviceUnavailable)
      }
      router.post("/refusing/oauth/token") { _, _ in
        Response.json(#"{"error":"access_denied","error_description":"Unauthorized"}"#, status: .forbidden)
      }
    }) { base in
      var unavailable = ScenarioHarness(baseURL: base + "/unavailable/")
      unavailable.clients = Self.confidential
      var refusing = ScenarioHarness(baseURL: base + "/refusing/")
      refusing.clients = Self.confidential
      return (try await unavailable.run([Self.tokenScenario]), try await refusing.run([Self.tokenScenario]))
    }
    #expect(reports.0.scenarios.first?.status == .error)
    #expect(reports.0.scenarios.first?.problemSummary.contains("503") == true)
    #expect(reports.0.exitCode == .environment)
    #expect(reports.1.scenarios.first?.status == .failed)
    #expect(reports.1.scenarios.first?.problemSummary.contains("access_denied") == true)
    #expect(reports.1.exitCode == .failure)
  }

  @Test("An `http` step answered 5xx is an environment error, unless its expect names `status`")
  func httpServerError() async throws {
    let report = try await LoopbackServer.with({ router in
      router.get("/down") { _, _ in Response.json(#"{"down":true}"#, status: .serviceUnavailable) }
    }) { base in
      try await ScenarioHarness(baseURL: base + "/").run([
        """
        scenario: Unexpected 503
        steps:
          - id: call
            http: { url: "down?code=very-secret-code-123" }
            expect: { body.down: true }
        """,
        """
        scenario: Expected 503
        steps:
          - id: call
            http: { url: down }
            expect: { status: 503 }
        """,
      ])
    }
    let unexpected = try #require(report.scenarios.first)
    #expect(unexpected.status == .error)
    let message = try #require(unexpected.step("call")?.problems.first?.message)
    #expect(message.contains("HTTP 503"))
    #expect(!message.contains("very-secret-code-123"), "\(message)")
    #expect(report.scenarios.last?.status == .passed, "\(report.scenarios.last?.problemSummary ?? "")")
    #expect(report.exitCode == .environment)
  }

  @Test("A tenant slower than the step timeout is an environment error; a slow `wait` is not")
  func tenantTimeout() async throws {
    let (report, reached) = try await TestRoutes.whileTheTenantHolds(
      route: "slow", budgets: ["300ms", "900ms", "2s"]
    ) { budget, base, _ in
      try await ScenarioHarness(baseURL: base).run([
        """
        scenario: Slow tenant
        steps:
          - id: call
            timeout: \(budget)
            http: { url: slow }
        """,
        """
        scenario: Slow scenario
        steps:
          - id: pause
            timeout: 300ms
            wait: { for: 2s }
        """,
      ])
    }
    #expect(reached, "the step never reached the tenant within its timeout: nothing was tested")
    let slowTenant = try #require(report.scenarios.first?.step("call"))
    #expect(slowTenant.status == .error)
    #expect(slowTenant.problems.first?.kind == .environment)
    #expect(slowTenant.problems.first?.message.contains("/slow") == true)
    let slowScenario = try #require(report.scenarios.last?.step("pause"))
    #expect(slowScenario.status == .failed)
    #expect(slowScenario.problems.first?.kind == .timeout)
  }

  @Test("A 429 with Retry-After is waited out and retried; the step passes")
  func rateLimitRetried() async throws {
    let calls = Mutex(0)
    let sleeps = Mutex<[Duration]>([])
    let report = try await LoopbackServer.with({ router in
      router.post("/oauth/token") { _, _ in
        let call = calls.withLock { count in
          count += 1
          return count
        }
        guard call > 1 else {
          var response = Response.json(#"{"error":"too_many_requests"}"#, status: .tooManyRequests)
          response.headers[.retryAfter] = "1"
          return response
        }
        return Response.json(#"{"access_token":"opaque-token-abcdef-123456","token_type":"Bearer","expires_in":60}"#)
      }
    }) { base in
      var harness = ScenarioHarness(baseURL: base + "/")
      harness.clients = Self.confidential
      harness.wrap = { live in
        RetryingTransport(wrapping: live, sleep: { duration in sleeps.withLock { $0.append(duration) } })
      }
      return try await harness.run([Self.tokenScenario])
    }
    #expect(report.scenarios.first?.status == .passed, "\(report.scenarios.first?.problemSummary ?? "")")
    #expect(calls.withLock { $0 } == 2)
    #expect(sleeps.withLock { $0 } == [.seconds(1)])
  }

  @Test("A 429 rate limit still refusing after the retries is an environment error, unless the step expects it")
  func rateLimitExhaustedIsEnvironment() async throws {
    let expecting = Self.tokenRequest(
      named: "The rate limit is what this step tests", expecting: "error.code: too_many_requests")
    let reports = try await LoopbackServer.with({ router in
      router.post("/limited/oauth/token") { _, _ in
        var response = Response.json(#"{"error":"too_many_requests"}"#, status: .tooManyRequests)
        response.headers[.retryAfter] = "1"
        return response
      }
      router.post("/blocked/oauth/token") { _, _ in
        Response.json(#"{"error":"too_many_attempts","error_description":"blocked"}"#, status: .tooManyRequests)
      }
    }) { base in
      var limited = ScenarioHarness(baseURL: base + "/limited/")
      limited.clients = Self.confidential
      limited.wrap = { live in RetryingTransport(wrapping: live, sleep: { _ in }) }
      var blocked = ScenarioHarness(baseURL: base + "/blocked/")
      blocked.clients = Self.confidential
      blocked.wrap = limited.wrap
      return (
        try await limited.run([Self.tokenScenario]), try await limited.run([expecting]),
        try await blocked.run([Self.tokenScenario]),
        try await limited.run([
          Self.tokenRequest(named: "Another error expected", expecting: "error.code: invalid_grant")
        ]),
        try await limited.run([Self.tokenRequest(named: "The limit expected", expecting: "error.status: 429")])
      )
    }
    let exhausted = try #require(reports.0.scenarios.first?.step("token"))
    #expect(exhausted.status == .error)
    #expect(exhausted.problems.first?.kind == .environment)
    #expect(exhausted.problems.first?.message.contains("rate limit") == true)
    #expect(reports.0.exitCode == .environment)
    #expect(reports.1.scenarios.first?.status == .passed, "\(reports.1.scenarios.first?.problemSummary ?? "")")
    // Brute-force protection's 429 is an answer: the flow said no (exit 1), never the environment.
    #expect(reports.2.scenarios.first?.status == .failed)
    #expect(reports.2.exitCode == .failure)
    // A step that expects another error learnt nothing about it from the limit: the environment,
    // not a failed assertion; one whose expectations accept the 429 tests the limit and passes.
    let otherError = try #require(reports.3.scenarios.first?.step("token"))
    #expect(otherError.status == .error, "\(otherError.problems.map(\.message))")
    #expect(otherError.problems.map(\.kind) == [.environment])
    #expect(otherError.problems.first?.message.contains("1 expectation was not checked") == true)
    #expect(reports.3.exitCode == .environment)
    #expect(reports.4.scenarios.first?.status == .passed, "\(reports.4.scenarios.first?.problemSummary ?? "")")
  }

  /// A 429 is a rate limit by its status (RFC 6585 §4), whatever the body calls it: the Management
  /// API's `{"statusCode":429,"error":"Too Many Requests",…}`, another provider's `rate_limited`,
  /// or an injected fault. Only brute-force protection's `too_many_attempts` and the device flow's
  /// `slow_down` are answers. Before, such a 429 after the retries was a failed assertion (exit 1).
  @Test(
    "A 429 by any other name still refusing after the retries is an environment error",
    arguments: [
      #"{"statusCode":429,"error":"Too Many Requests","message":"Global limit has been reached"}"#,
      #"{"error":"rate_limited"}"#, #"{"error":"injected_fault","error_description":"Fault injected"}"#,
    ])
  func anyRateLimitExhaustedIsEnvironment(body: String) async throws {
    let report = try await LoopbackServer.with({ router in
      router.post("/limited/oauth/token") { _, _ in Response.json(body, status: .tooManyRequests) }
    }) { base in
      var limited = ScenarioHarness(baseURL: base + "/limited/")
      limited.clients = Self.confidential
      limited.wrap = { live in RetryingTransport(wrapping: live, sleep: { _ in }) }
      return try await limited.run([Self.tokenScenario])
    }
    let step = try #require(report.scenarios.first?.step("token"))
    #expect(step.problems.map(\.kind) == [.environment], "\(step.problems.map(\.message))")
    #expect(step.problems.first?.message.contains("rate limit still answered 429") == true)
    #expect(report.exitCode == .environment)
  }
}
