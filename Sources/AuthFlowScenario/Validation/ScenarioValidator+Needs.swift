import AuthFlowCore

extension ScenarioValidator {
  /// Unknown ids in `needs`, generated ids, and main steps that need a cleanup step.
  func checkNeeds(_ scenario: Scenario, graph: FlowGraph) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let explicitIDs = (scenario.steps + scenario.cleanup).filter(\.hasExplicitID).map(\.id.value)
    let cleanupIDs = Set(scenario.cleanup.map(\.id.value))
    var hints = SuggestionBudget()
    for step in scenario.steps + scenario.cleanup {
      for need in step.needs ?? [] {
        if let target = graph.node(need.value) {
          if !target.step.hasExplicitID {
            diagnostics.append(
              .generatedIDReference(
                need.value, at: need.location, length: need.value.count, step: target.step.location))
          } else if cleanupIDs.contains(need.value), !cleanupIDs.contains(step.id.value) {
            diagnostics.append(.needsCleanupStep(need, step: step.id.value))
          }
        } else {
          diagnostics.append(
            .unknownNeed(need, step: step.id.value, hint: hints.hint(for: need.value, in: explicitIDs)))
        }
      }
    }
    return diagnostics
  }

  /// Each cycle once, located at the `needs` entry that closes it.
  func checkCycles(_ graph: FlowGraph) -> [Diagnostic] {
    graph.cycles.map { cycle in
      // Each step needs the next; the last needs the first. Prefer the closing entry, else any
      // explicit entry of the cycle, else the step (a cycle through list-order defaults).
      var edges: [(from: String, to: String)] = []
      for (offset, id) in cycle.enumerated() {
        edges.append((id, cycle[(offset + 1) % cycle.count]))
      }
      for edge in edges.reversed() {
        if let need = graph.node(edge.from)?.step.needs?.first(where: { $0.value == edge.to }) {
          return .cycle(cycle, at: need.location, length: need.value.count)
        }
      }
      let location = graph.node(cycle[0])?.step.location
      return .cycle(cycle, at: location, length: 1)
    }
  }
}

extension Diagnostic {
  fileprivate static func cycle(_ path: [String], at location: SourceLocation?, length: Int) -> Diagnostic {
    guard let location else { return .error("steps wait for each other in a cycle", at: nil) }
    return cycle(path, at: location, length: length)
  }
}
