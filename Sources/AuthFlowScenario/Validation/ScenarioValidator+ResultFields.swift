import AuthFlowCore

extension ScenarioValidator {
  /// The first segment after `steps.<id>.` and the first segment of each `expect` key must be a
  /// result field the step's action declares (``ActionSignature/results``), so a typo such as
  /// `steps.login.id_tokn` is found here with "did you mean", not at run time.
  func checkResultFields(graph: FlowGraph, templates: [[StepTemplate]]) -> [Diagnostic] {
    guard let catalog else { return [] }
    var diagnostics: [Diagnostic] = []
    for (node, templates) in zip(graph.nodes, templates) {
      let step = node.step
      if let fields = catalog.resultFieldNames(of: step.action.name.value) {
        for expectation in step.expectations {
          guard let field = expectation.components.first, !fields.contains(field) else { continue }
          diagnostics.append(
            .unknownResultField(
              field, step: node.id, action: step.action.name.value, at: expectation.path.location,
              length: max(1, field.count), hint: Suggestion.hint(for: field, in: fields.sorted())))
        }
      }
      for template in templates {
        for reference in template.references where reference.root == "steps" && reference.path.count >= 2 {
          let (target, field) = (reference.path[0], reference.path[1])
          guard let targetNode = graph.node(target), targetNode.step.hasExplicitID,
            let fields = catalog.resultFieldNames(of: targetNode.step.action.name.value), !fields.contains(field)
          else { continue }
          diagnostics.append(
            .unknownResultField(
              field, step: target, action: targetNode.step.action.name.value, at: reference.location,
              length: reference.length,
              hint: Suggestion.hint(for: field, in: fields.sorted())))
        }
      }
    }
    return diagnostics
  }
}

extension Diagnostic {
  static func unknownResultField(
    _ field: String, step: String, action: String, at location: SourceLocation, length: Int, hint: String?
  ) -> Diagnostic {
    .error(
      "the result of step '\(step)' (\(action)) has no field '\(field)'", at: location, length: length,
      hint: hint ?? "docs/actions/\(action).md lists the fields of its result")
  }
}
