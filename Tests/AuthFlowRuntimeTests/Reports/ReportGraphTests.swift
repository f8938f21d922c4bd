import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowReporting

/// The graph the HTML report draws from a run (each step's `needs`) is the scenario's flow graph:
/// the same layout as `FlowGraph(scenario).layout`, for bundled scenarios with fan-outs, joins,
/// conditions and cleanup.
@Suite struct ReportGraphTests {
  static let files = [
    "web_auth_login.yaml", "web_auth_negative.yaml", "id_token_validation.yaml", "signup_screen_hint.yaml",
  ]

  @Test func runDrawsTheScenariosFlowGraph() async throws {
    let paths = Self.files.map { BundledScenarioTests.root.appendingPathComponent("scenarios/\($0)").path }
    let loaded = await Pipeline.load(paths)
    #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.map(\.description))")
    let report = try await MockHarness.run(
      instances: loaded.scenarios.flatMap(\.instances), secrets: SecretRegistry())
    #expect(report.scenarios.count == Self.files.count)
    var edges = 0
    for (scenario, parsed) in zip(report.scenarios, loaded.scenarios) {
      #expect(scenario.status == .passed, "\(scenario.name): \(scenario.problemSummary)")
      #expect(scenario.steps.count == parsed.steps.count + parsed.cleanup.count, "\(scenario.name)")
      let drawn = HTMLFlowGraph(scenario: scenario, anchor: "sc").layout
      #expect(drawn == FlowGraph(parsed).layout, "\(scenario.name)")
      edges += drawn.edges.count
    }
    #expect(edges >= 10, "the scenarios have fan-outs and joins: \(edges) edges")
  }
}
