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
    for node in graph.nodes {
      let ancestors = graph.ancestors(of: node.id)
      for (part, template, ownResultAvailable) in node.step.templateParts {
        for reference in template.references where reference.root == "steps" {
          guard let target = reference.path.first else { continue }
          if let problem = stepReferenceProblem(
            target, from: node, ancestors: ancestors, graph: graph, part: part,
            ownResultAvailable: ownResultAvailable, explicitIDs: explicitIDs, reference: reference)
          {
            diagnostics.append(problem)
          }
        }
      }
    }
    return diagnostics
  }

  private func stepReferenceProblem(
    _ target: String, from node: FlowGraph.Node, ancestors: Set<String>, graph: FlowGraph, part: String,
    ownResultAvailable: Bool, explicitIDs: [String], reference: ExpressionReference
  ) -> Diagnostic? {
    let (location, length) = (reference.location, reference.length)
    guard let targetNode = graph.node(target) else {
      return .unknownStepReference(
        target, from: node.id, at: location, length: length, hint: Suggestion.hint(for: target, in: explicitIDs))
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
    if !ancestors.contains(target) {
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
