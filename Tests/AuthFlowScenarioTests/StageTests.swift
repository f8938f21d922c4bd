import AuthFlowCore
import AuthFlowScenario
import Testing

/// The parse and validate stages as values: a parsed scenario, then a validated one holding the
/// flow graph its checks used; a file with an error stops at the parsed stage.
@Suite struct StageTests {
  static let chain = """
    scenario: A chain
    steps:
      - id: a
        wait: 1ms
      - id: b
        wait: 1ms
      - id: c
        needs: [a]
        wait: 1ms
    """

  @Test func aValidScenarioCarriesItsGraphToItsInstances() throws {
    let parsed = ScenarioParser().parsed(Self.chain, file: "chain.yaml")
    #expect(parsed.diagnostics.isEmpty)
    let (validated, diagnostics) = ScenarioValidator().validate(parsed)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    let scenario = try #require(validated)
    #expect(scenario.graph.nodes.map(\.dependencies) == [[], ["a"], ["a"]])
    let instance = try #require(scenario.instances.first)
    #expect(instance.graph.nodes.map(\.id) == ["a", "b", "c"])
  }

  @Test func anErrorStopsAtTheParsedStageWithEveryProblem() {
    let text = Self.chain.replacingOccurrences(of: "needs: [a]", with: "needs: [z]")
    let parsed = ScenarioParser().parsed(text, file: "chain.yaml")
    #expect(parsed.scenario != nil)
    let (validated, diagnostics) = ScenarioValidator().validate(parsed)
    #expect(validated == nil)
    #expect(diagnostics.contains { $0.isError && $0.location?.line == 8 }, "\(diagnostics.map(\.description))")
  }

  @Test func textThatIsNotAScenarioHasNoScenario() {
    let parsed = ScenarioParser().parsed("- just\n- a list\n", file: "list.yaml")
    #expect(parsed.scenario == nil)
    #expect(parsed.diagnostics.hasErrors)
    #expect(ScenarioValidator().validate(parsed).validated == nil)
  }
}
