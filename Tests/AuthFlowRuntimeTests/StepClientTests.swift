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
}
