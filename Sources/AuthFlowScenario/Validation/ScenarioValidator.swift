public import AuthFlowCore
public import AuthFlowExpression

/// The validate stage: the checks that need the whole scenario — `needs` and cycles, references
/// to `steps.X` that may not have run, unknown expression functions and roots, `save` names that
/// collide. Runs after `ScenarioParser`, on the same located model; reports, never throws.
public struct ScenarioValidator: Sendable {
  /// The functions expressions may call.
  public var functions: FunctionRegistry

  /// The actions, when known: an action that defines variables (`set`) counts as saving them.
  public var catalog: ActionCatalog?

  public init(functions: FunctionRegistry = .standard, catalog: ActionCatalog? = nil) {
    self.catalog = catalog
    self.functions = functions
  }

  /// Every problem found, sorted by location.
  public func validate(_ scenario: Scenario) -> [Diagnostic] {
    validate(scenario, graph: FlowGraph(scenario))
  }

  /// Every problem found, with the graph already built.
  public func validate(_ scenario: Scenario, graph: FlowGraph) -> [Diagnostic] {
    // Each step's templates and their references, once for all the checks: the graph's nodes are
    // the scenario's steps, then its cleanup steps, in order.
    let templates = graph.nodes.map(\.step.templates)
    var diagnostics: [Diagnostic] = []
    diagnostics += checkNeeds(scenario, graph: graph)
    diagnostics += checkCycles(graph)
    diagnostics += checkExpressions(scenario, templates: templates)
    diagnostics += checkReferences(scenario, graph: graph, templates: templates)
    diagnostics += checkStepParameters(graph: graph)
    diagnostics += checkResultFields(graph: graph, templates: templates)
    diagnostics += checkSaves(scenario)
    diagnostics += checkNames(scenario, templates: templates)
    diagnostics += checkRootMembers(scenario, templates: templates)
    diagnostics += checkConditions(graph)
    diagnostics += checkClaimNames(scenario)
    return diagnostics.sortedByLocation
  }
}
