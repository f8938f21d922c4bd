import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

/// Hostile tenants on real loopback sockets, end to end through the runtime: an environment
/// failure (exit 3) with one readable line, within the configured deadline (issue 11, item 4).
@Suite struct HostileTenantRunTests {
  @Test("A scenario timeout while the tenant hangs is an environment error, not an assertion")
  func scenarioTimeoutWhileTheTenantHangs() async throws {
    let clock = ContinuousClock()
    let started = clock.now
    let report = try await HostileServer.with(.hang) { host in
      try await ScenarioHarness(baseURL: "http://\(host)/").run([
        """
        scenario: Hanging tenant
        timeout: 15s
        steps:
          - id: call
            http: { url: hang }
          - id: after
            http: { url: never }
        """
      ])
    }
    // 15 s, not less: on a machine busy with a thousand other tests the request must have started
    // before the timeout for it to be the tenant's (and it stays under the 30 s request deadline).
    #expect(clock.now - started < .seconds(300), "a 15 s scenario timeout ends the run, however busy the machine")
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .error, "\(scenario.problemSummary)")
    let call = try #require(scenario.step("call"))
    #expect(call.status == .error)
    #expect(call.problems.first?.kind == .environment)
    let message = call.problems.first?.message ?? ""
    #expect(message.hasPrefix("the scenario did not finish within its timeout of 15.00s: the tenant had not answered"))
    #expect(message.contains("/hang"))
    #expect(scenario.step("after")?.status == .skipped)
    #expect(report.exitCode == .environment)
  }

  @Test("A scenario timeout in the scenario's own waiting stays an assertion-side timeout")
  func scenarioTimeoutWhileWaiting() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:1/").run([
      """
      scenario: Slow scenario
      timeout: 300ms
      steps:
        - id: pause
          wait: { for: 5s }
      """
    ])
    let pause = try #require(report.scenarios.first?.step("pause"))
    #expect(pause.status == .failed)
    #expect(pause.problems.first?.kind == .timeout)
    #expect(report.exitCode == .failure)
  }

  /// `authflow run` with a `kind: oidc` tenant resolves it first: a discovery document trickled
  /// one byte at a time stops the run as an environment failure (exit 3) within the deadline.
  /// What ended the wait is asserted (the message names the exchange deadline), not how long it took:
  /// a loaded machine stretches the wall clock. The time limit only keeps a hang from stalling the suite.
  @Test(
    "An oidc tenant whose discovery trickles fails resolution as an environment error in time",
    .timeLimit(.minutes(5)))
  func tricklingDiscovery() async throws {
    try await HostileServer.with(.trickleBody(interval: .milliseconds(300))) { host in
      var configuration = LiveTransport.Configuration()
      configuration.requestTimeout = .seconds(1)
      configuration.readTimeout = .seconds(1)
      let live = LiveTransport(configuration: configuration)
      var policy = RetryingTransport.Policy()
      policy.requestTimeout = configuration.requestTimeout
      let transport = RetryingTransport(wrapping: live, policy: policy)
      let yaml = """
        tenants:
          op:
            kind: oidc
            issuer: http://\(host)/
        """
      let (config, _) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
      let profile = try #require(config?.tenant(named: "op"))
      let resolver = TenantResolver(
        embedded: MockTenantHost(), environment: [:], secrets: SecretRegistry(), projectDirectory: ".",
        transport: transport)
      let error = await #expect(throws: TenantResolutionError.self) { try await resolver.resolve(profile) }
      try? await live.shutdown()
      #expect(error?.isEnvironment == true)
      let message = error?.message ?? ""
      #expect(
        message.hasPrefix(
          "could not fetch the discovery document http://\(host)/.well-known/openid-configuration: "
            + "no complete response from http://\(host)/.well-known/openid-configuration within "))
      #expect(message.hasSuffix("(the tenant is too slow or not answering)"))
      #expect(!message.contains("\n"))
      #expect(!message.contains("NIO"))
    }
  }
}
