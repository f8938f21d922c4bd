import AuthFlowCore
import AuthFlowRuntime
import Testing

@Suite("Step results kept only for reporters that write them")
struct StepResultRetentionTests {
  static let scenario = """
    scenario: results retention
    client: native
    steps:
      - id: login
        login: { username: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
    """

  @Test("By default the run report keeps each step's result (the JSON reporter writes them)")
  func keptByDefault() async throws {
    let instances = try ScenarioHarness.parse(Self.scenario, file: "keep.yaml").instances
    let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry())
    let step = try #require(report.scenarios.first?.steps.first)
    #expect(step.status == .passed)
    #expect(step.result?.objectValue?["access_token"] != nil)
  }

  @Test("Without a reporter that needs them, results are dropped; statuses and problems stay")
  func droppedWhenNotNeeded() async throws {
    let instances = try ScenarioHarness.parse(Self.scenario, file: "drop.yaml").instances
    let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry(), keepsStepResults: false)
    let step = try #require(report.scenarios.first?.steps.first)
    #expect(step.status == .passed)
    #expect(step.result == nil)
  }
}
