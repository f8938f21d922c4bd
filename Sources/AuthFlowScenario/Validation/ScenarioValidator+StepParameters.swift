import AuthFlowCore

extension ScenarioValidator {
  /// A parameter of type ``ParameterType/step`` (`outbox`'s `after:`) must name an explicit step
  /// that runs before its own: an ancestor in the graph, as a `steps.X` reference must be (the
  /// parser has already refused an expression there).
  func checkStepParameters(graph: FlowGraph) -> [Diagnostic] {
    guard let catalog else { return [] }
    var found: [(node: FlowGraph.Node, parameter: String, target: String, location: SourceLocation)] = []
    for node in graph.nodes {
      guard let signature = catalog[node.step.action.name.value] else { continue }
      for parameter in signature.parameters where parameter.type == .step {
        guard let template = node.step.action.parameters.member(parameter.name),
          case .literal(.string(let target), let location) = template
        else { continue }
        found.append((node, parameter.name, target, location))
      }
    }
    guard !found.isEmpty else { return [] }
    let ancestry = graph.ancestry(of: Set(found.map(\.target)))
    let explicitIDs = graph.nodes.map(\.step).filter(\.hasExplicitID).map(\.id.value)
    var hints = SuggestionBudget()
    var diagnostics: [Diagnostic] = []
    for (node, parameter, id, location) in found {
      let subject = "parameter '\(parameter)' of step '\(node.id)'"
      guard let targetNode = graph.node(id) else {
        diagnostics.append(
          .unknownStep(id, subject: subject, at: location, hint: hints.hint(for: id, in: explicitIDs)))
        continue
      }
      if !targetNode.step.hasExplicitID {
        diagnostics.append(
          .generatedIDReference(id, at: location, length: id.count, step: targetNode.step.location))
      } else if id == node.id || (targetNode.isCleanup && !node.isCleanup)
        || !ancestry.contains(id, before: node.id)
      {
        diagnostics.append(
          .stepNotEarlier(
            id, subject: subject, step: node.id, cleanup: targetNode.isCleanup && !node.isCleanup,
            at: location, definedAt: targetNode.step.id.location))
      }
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func unknownStep(_ id: String, subject: String, at location: SourceLocation, hint: String?) -> Diagnostic {
    .error("\(subject) names step '\(id)', but there is no step '\(id)'", at: location, length: id.count, hint: hint)
  }

  static func stepNotEarlier(
    _ id: String, subject: String, step: String, cleanup: Bool, at location: SourceLocation,
    definedAt: SourceLocation?
  ) -> Diagnostic {
    let reason =
      id == step
      ? "a step cannot name itself" : cleanup ? "cleanup runs after every other step" : "'\(id)' does not run before it"
    return .error(
      "\(subject) names step '\(id)', but \(reason)", at: location, length: id.count,
      notes: id == step ? [] : definedAt.map { [Note("'\(id)' is defined here", at: $0)] } ?? [],
      hint: id == step || cleanup ? "name a step that runs before '\(step)'" : "add '\(id)' to the 'needs' of '\(step)'"
    )
  }
}
