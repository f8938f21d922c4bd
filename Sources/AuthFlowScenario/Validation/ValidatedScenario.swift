public import AuthFlowCore

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

extension ScenarioValidator {
  /// The validate stage: builds the parsed scenario's flow graph and checks the scenario with it.
  /// Every problem of both stages, sorted by location; the validated scenario when none is an error.
  public func validate(_ parsed: ParsedScenario) -> (validated: ValidatedScenario?, diagnostics: [Diagnostic]) {
    guard let scenario = parsed.scenario else { return (nil, parsed.diagnostics.sortedByLocation) }
    let graph = FlowGraph(scenario)
    let diagnostics = (parsed.diagnostics + validate(scenario, graph: graph)).sortedByLocation
    return (diagnostics.hasErrors ? nil : ValidatedScenario(scenario: scenario, graph: graph), diagnostics)
  }
}
