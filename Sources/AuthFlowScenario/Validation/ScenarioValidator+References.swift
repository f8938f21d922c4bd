import AuthFlowCore

extension ScenarioValidator {
  /// `steps.X` must name an explicit step that runs before the one reading it: one of its
  /// ancestors in the graph, or itself in `expect`, `save` and `retry.until` (after it ran).
  /// Vars and matrix values are evaluated before any step, so they cannot read `steps` at all.
  func checkReferences(_ scenario: Scenario, graph: FlowGraph, templates: [[StepTemplate]]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for binding in scenario.vars {
      for reference in binding.value.references where reference.root == "steps" {
        if let id = reference.path.first {
          diagnostics.append(
            .stepReferenceBeforeSteps(id, in: "'vars'", at: reference.location, length: reference.length))
        }
      }
    }
    for axis in scenario.matrix {
      for reference in axis.values.flatMap(\.references) where reference.root == "steps" {
        if let id = reference.path.first {
          diagnostics.append(
            .stepReferenceBeforeSteps(id, in: "'matrix'", at: reference.location, length: reference.length))
        }
      }
    }
    let explicitIDs = (scenario.steps + scenario.cleanup).filter(\.hasExplicitID).map(\.id.value)
    // Every reference first, then one ancestry of all their targets: near-linear in the steps.
    var found: [(node: FlowGraph.Node, template: StepTemplate, reference: ExpressionReference)] = []
    var targets: Set<String> = []
    for (node, templates) in zip(graph.nodes, templates) {
      for template in templates {
        for reference in template.references where reference.root == "steps" {
          guard let target = reference.path.first else { continue }
          targets.insert(target)
          found.append((node, template, reference))
        }
      }
    }
    guard !found.isEmpty else { return diagnostics }
    let ancestry = graph.ancestry(of: targets)
    var hints = SuggestionBudget()
    for (node, template, reference) in found {
      guard let target = reference.path.first else { continue }
      if let problem = stepReferenceProblem(
        target, from: node, ancestry: ancestry, graph: graph, template: template, explicitIDs: explicitIDs,
        hints: &hints, reference: reference)
      {
        diagnostics.append(problem)
      }
    }
    return diagnostics
  }

  private func stepReferenceProblem(
    _ target: String, from node: FlowGraph.Node, ancestry: FlowGraph.Ancestry, graph: FlowGraph,
    template: StepTemplate, explicitIDs: [String], hints: inout SuggestionBudget, reference: ExpressionReference
  ) -> Diagnostic? {
    let (location, length) = (reference.location, reference.length)
    guard let targetNode = graph.node(target) else {
      return .unknownStepReference(
        target, from: node.id, at: location, length: length, hint: hints.hint(for: target, in: explicitIDs))
    }
    if !targetNode.step.hasExplicitID {
      return .generatedIDReference(target, at: location, length: length, step: targetNode.step.location)
    }
    if target == node.id {
      if template.ownResultAvailable { return nil }
      return .ownResultTooEarly(
        target, in: template.label(action: node.step.action.name.value), at: location, length: length)
    }
    if targetNode.isCleanup, !node.isCleanup {
      return .cleanupReference(target, from: node.id, at: location, length: length)
    }
    if !ancestry.contains(target, before: node.id) {
      return .notAnAncestor(target, from: node.id, at: location, length: length, definedAt: targetNode.step.id.location)
    }
    return nil
  }
}
