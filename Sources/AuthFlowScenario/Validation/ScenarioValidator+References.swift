import AuthFlowCore

extension ScenarioValidator {
  /// `steps.X` must name an explicit step that runs before the one reading it: one of its
  /// ancestors in the graph, or itself in `expect`, `save` and `retry.until` (after it ran).
  /// Vars and matrix values are evaluated before any step, so they cannot read `steps` at all.
  func checkReferences(_ scenario: Scenario, graph: FlowGraph) -> [Diagnostic] {
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
    var found: [(node: FlowGraph.Node, part: String, ownResultAvailable: Bool, reference: ExpressionReference)] = []
    var targets: Set<String> = []
    for node in graph.nodes {
      for (part, template, ownResultAvailable) in node.step.templateParts {
        for reference in template.references where reference.root == "steps" {
          guard let target = reference.path.first else { continue }
          targets.insert(target)
          found.append((node, part, ownResultAvailable, reference))
        }
      }
    }
    guard !found.isEmpty else { return diagnostics }
    let ancestry = graph.ancestry(of: targets)
    var hints = SuggestionBudget()
    for (node, part, ownResultAvailable, reference) in found {
      guard let target = reference.path.first else { continue }
      if let problem = stepReferenceProblem(
        target, from: node, ancestry: ancestry, graph: graph, part: part,
        ownResultAvailable: ownResultAvailable, explicitIDs: explicitIDs, hints: &hints, reference: reference)
      {
        diagnostics.append(problem)
      }
    }
    return diagnostics
  }

  private func stepReferenceProblem(
    _ target: String, from node: FlowGraph.Node, ancestry: FlowGraph.Ancestry, graph: FlowGraph, part: String,
    ownResultAvailable: Bool, explicitIDs: [String], hints: inout SuggestionBudget, reference: ExpressionReference
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
      return ownResultAvailable ? nil : .ownResultTooEarly(target, in: part, at: location, length: length)
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

extension Step {
  /// The templates of the step, with what a message calls each part and whether the step's own
  /// result exists when it is evaluated.
  var templateParts: [(part: String, template: Template, ownResultAvailable: Bool)] {
    var parts: [(part: String, template: Template, ownResultAvailable: Bool)] = [
      ("its '\(action.name.value)' parameters", action.parameters, false)
    ]
    if let condition { parts.append(("its 'if'", condition, false)) }
    if let until = retry?.until { parts.append(("'retry.until'", until, true)) }
    for expectation in expectations {
      for matcher in expectation.matchers { parts.append(("'expect'", matcher.operand, true)) }
    }
    for binding in save { parts.append(("'save'", binding.value, true)) }
    return parts
  }
}
