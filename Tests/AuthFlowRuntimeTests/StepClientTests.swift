import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// A step's `client:` replaces the scenario's client profile for that step only: its action and
/// the `client` root of its expressions; the steps around it keep the scenario's.
@Suite struct StepClientTests {
  private var harness: ScenarioHarness {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9")
    harness.clients = ["native": ["client_id": "native-id"], "web": ["client_id": "web-id"]]
    return harness
  }

  @Test func aStepUsesItsOwnClientAndTheNextStepTheScenarios() async throws {
    let report = try await harness.run(
      """
      scenario: Native then web
      client: native
      steps:
        - id: app
          set: { id: "${{ client.client_id }}" }
        - id: browser
          client: web
          set: { id: "${{ client.client_id }}" }
          expect: { id: web-id }
        - id: back
          set: { id: "${{ client.client_id }}" }
          expect: { id: native-id }
        - assert: ${{ steps.app.id == 'native-id' && steps.browser.id == 'web-id' }}
      """)
    #expect(report.status == .passed, "\(report.steps.flatMap(\.problems).map(\.message))")
  }

  @Test func aStepClientTheTenantLacksSkipsTheScenario() async throws {
    let report = try await harness.run(
      """
      scenario: Needs a spa client
      steps:
        - set: { id: "${{ client.client_id }}" }
          client: spa
      """)
    #expect(report.status == .skipped)
    #expect(report.skipReason == "tenant 'test' has no client profile 'spa'")
  }

  @Test func aStepClientMustBeAString() {
    #expect(throws: ScenarioHarness.InvalidScenario.self) {
      try ScenarioHarness.parse("scenario: x\nsteps:\n  - wait: 1ms\n    client: [web]\n")
    }
  }

  /// A profile read as `tenant.users.NAME` or `tenant.clients.NAME` that the running tenant
  /// lacks skips the scenario, as a `client:` does: read, it would be null, and a negated check
  /// against it would hold whatever the tenant answered.
  @Test func aProfileReadThatTheTenantLacksSkipsTheScenario() async throws {
    var harness = harness
    harness.users = ["alice": ["email": "alice@example.com"]]
    let user = try await harness.run(
      """
      scenario: Reads bob
      steps:
        - set: { email: x }
          expect: { email: { not_equals: "${{ tenant.users.bob.email }}" } }
      """)
    #expect(user.status == .skipped)
    #expect(user.skipReason == "tenant 'test' has no user profile 'bob'")
    let client = try await harness.run(
      """
      scenario: Reads the spa client
      steps:
        - set: { id: "${{ tenant['clients'].spa.client_id }}" }
      """)
    #expect(client.status == .skipped)
    #expect(client.skipReason == "tenant 'test' has no client profile 'spa'")
    let present = try await harness.run(
      """
      scenario: Reads alice and the web client
      steps:
        - set: { email: "${{ tenant.users.alice.email }}", id: "${{ tenant.clients.web.client_id }}" }
          expect: { email: alice@example.com, id: web-id }
      """)
    #expect(present.status == .passed, "\(present.steps.flatMap(\.problems).map(\.message))")
    let fallback = try await harness.run(
      """
      scenario: Reads bob if the tenant has him, else alice
      steps:
        - set: { email: "${{ (tenant.users.bob || tenant.users.alice).email }}" }
          expect: { email: alice@example.com }
      """)
    #expect(fallback.status == .passed, "\(fallback.skipReason ?? "")")
    #expect(fallback.steps.allSatisfy { $0.problems.isEmpty })
  }
}
