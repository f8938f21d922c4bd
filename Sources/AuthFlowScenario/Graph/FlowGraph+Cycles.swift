extension FlowGraph {
  /// Each cycle once, as the list of step ids where each needs the next (the last needs the
  /// first), starting at the step that comes first in the file.
  public var cycles: [[String]] {
    var found: [[String]] = []
    var seenSets: Set<Set<String>> = []
    var state: [String: VisitState] = [:]
    var stack: [String] = []

    func visit(_ id: String) {
      state[id] = .inProgress
      stack.append(id)
      for dependency in dependencies(of: id) {
        switch state[dependency] {
        case .inProgress?:
          if let start = stack.lastIndex(of: dependency) {
            let cycle = Array(stack[start...])
            if seenSets.insert(Set(cycle)).inserted { found.append(rotated(cycle)) }
          }
        case nil:
          visit(dependency)
        case .done?:
          break
        }
      }
      stack.removeLast()
      state[id] = .done
    }

    for node in nodes where state[node.id] == nil {
      visit(node.id)
    }
    return found
  }

  /// The cycle starting at its step listed first in the file.
  private func rotated(_ cycle: [String]) -> [String] {
    let position = { (id: String) in self.nodes.firstIndex { $0.id == id } ?? Int.max }
    guard let first = cycle.indices.min(by: { position(cycle[$0]) < position(cycle[$1]) }) else { return cycle }
    return Array(cycle[first...] + cycle[..<first])
  }
}

private enum VisitState {
  case inProgress, done
}
