extension FlowGraph {
  /// Each cycle once, as the list of step ids where each needs the next (the last needs the
  /// first), starting at the step that comes first in the file.
  ///
  /// A depth-first search with an explicit stack: a 20,000-step chain must not recurse 20,000 deep.
  public var cycles: [[String]] {
    var found: [[String]] = []
    var seenSets: Set<Set<String>> = []
    var state: [String: VisitState] = [:]
    /// The path being explored, and where it is on the stack (for the cycle it closes).
    var path: [String] = []
    var pathIndex: [String: Int] = [:]
    /// Each frame: a step and the index of its next dependency to visit.
    var frames: [(id: String, next: Int)] = []

    for node in nodes where state[node.id] == nil {
      state[node.id] = .inProgress
      pathIndex[node.id] = path.count
      path.append(node.id)
      frames.append((node.id, 0))
      while let frame = frames.last {
        let dependencies = dependencies(of: frame.id)
        guard frame.next < dependencies.count else {
          frames.removeLast()
          path.removeLast()
          pathIndex[frame.id] = nil
          state[frame.id] = .done
          continue
        }
        frames[frames.count - 1].next += 1
        let dependency = dependencies[frame.next]
        switch state[dependency] {
        case .inProgress?:
          if let start = pathIndex[dependency] {
            let cycle = Array(path[start...])
            if seenSets.insert(Set(cycle)).inserted { found.append(rotated(cycle)) }
          }
        case nil:
          state[dependency] = .inProgress
          pathIndex[dependency] = path.count
          path.append(dependency)
          frames.append((dependency, 0))
        case .done?:
          break
        }
      }
    }
    return found
  }

  /// The cycle starting at its step listed first in the file.
  private func rotated(_ cycle: [String]) -> [String] {
    let position = { (id: String) in self.index(of: id) ?? Int.max }
    guard let first = cycle.indices.min(by: { position(cycle[$0]) < position(cycle[$1]) }) else { return cycle }
    return Array(cycle[first...] + cycle[..<first])
  }
}

private enum VisitState {
  case inProgress, done
}
