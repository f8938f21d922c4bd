extension FlowGraph.Node {
  /// What a drawing says about the step under its id: the action and its marks
  /// (`if: …`, `retry ×3`).
  var details: [String] {
    var details = [step.action.name.value.isEmpty ? "(no action)" : step.action.name.value]
    if let retry = step.retry { details.append("retry ×\(retry.attempts)") }
    if step.condition != nil {
      let text = step.conditionText ?? "…"
      details.append("if: " + (text.count > 40 ? String(text.prefix(39)) + "…" : text))
    }
    return details
  }

  /// The id, then the name when the step has one.
  var heading: String {
    guard let name = step.name, name != id else { return id }
    return "\(id): \(name)"
  }
}

extension FlowGraph {
  /// Main steps no other main step waits for: where the flow ends before cleanup.
  var mainSinks: [Node] {
    mainNodes.filter { node in !dependents(of: node.id).contains { self.node($0)?.isCleanup == false } }
  }

  /// Cleanup steps that wait for no other cleanup step: where cleanup starts.
  var cleanupRoots: [Node] {
    cleanupNodes.filter(\.dependencies.isEmpty)
  }
}
