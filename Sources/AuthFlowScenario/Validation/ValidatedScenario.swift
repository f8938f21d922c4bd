/// The validate stage's output: a scenario whose file has no error, with the flow graph the
/// validator checked. That one graph is what `authflow graph` draws, the HTML report's steps link
/// to, and the interpreter walks (through each instance's ``ScenarioInstance/graph``).
public struct ValidatedScenario: Sendable {
  public let scenario: Scenario
  public let graph: FlowGraph

  init(scenario: Scenario, graph: FlowGraph) {
    self.scenario = scenario
    self.graph = graph
  }

  /// Every run of the scenario, one per matrix combination, sharing ``graph``.
  public var instances: [ScenarioInstance] { scenario.instances(graph: graph) }
}
