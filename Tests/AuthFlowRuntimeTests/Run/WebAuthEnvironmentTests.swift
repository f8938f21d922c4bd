import AuthFlowCore
import AuthFlowRuntime
import AuthFlowTestSupport
import Hummingbird
import Testing

/// Web Auth's browser meeting a failing tenant: a 5xx page is the environment, not a page to drive.
@Suite struct WebAuthEnvironmentTests {
  @Test("A 5xx page from /authorize is an environment error, not a login page to drive")
  func serverErrorPage() async throws {
    let report = try await LoopbackServer.with({ router in
      router.get("/authorize") { _, _ in Response.json("{}", status: .badGateway) }
    }) { base in
      var harness = ScenarioHarness(baseURL: base + "/")
      harness.clients = [
        "native": .object(["client_id": .string("client-abc"), "redirect_uri": .string("https://app.example.com/cb")])
      ]
      return try await harness.run(
        """
        scenario: Web Auth against a failing tenant
        client: native
        steps:
          - id: login
            web_auth: { login: { email: a@example.com, password: "pw-123456" } }
        """)
    }
    let step = try #require(report.step("login"))
    #expect(step.status == .error, "\(report.problemSummary)")
    #expect(step.problems.first?.message.contains("HTTP 502") == true, "\(report.problemSummary)")
  }
}
