extension FlowGraph {
  /// Which of a set of steps (the targets of `steps.X` references) has run before each step:
  /// computed once for the whole graph, as one bit set of targets per step, in topological order.
  /// O((steps + needs) × targets / 64) instead of a graph search per reference.
  public struct Ancestry: Sendable {
    private let targetIndex: [String: Int]
    private let words: Int
    /// Row `i` (words `i*words ..< (i+1)*words`) holds the targets that are ancestors of node `i`.
    private let bits: [UInt64]
    private let nodeIndex: [String: Int]
    /// Steps caught in a cycle: answered by a search, as their order is not defined.
    private let fallback: [String: Set<String>]

    init(graph: FlowGraph, targets: Set<String>) {
      var targetIndex: [String: Int] = [:]
      for target in targets.sorted() where graph.index(of: target) != nil { targetIndex[target] = targetIndex.count }
      let words = max(1, (targetIndex.count + 63) / 64)
      var nodeIndex: [String: Int] = [:]
      for (offset, node) in graph.nodes.enumerated() where nodeIndex[node.id] == nil { nodeIndex[node.id] = offset }
      var bits = [UInt64](repeating: 0, count: graph.nodes.count * words)
      var computed = [Bool](repeating: false, count: graph.nodes.count)
      var fallback: [String: Set<String>] = [:]
      // Every main step runs before any cleanup step.
      var mainTargets = [UInt64](repeating: 0, count: words)
      for node in graph.nodes where !node.isCleanup {
        if let bit = targetIndex[node.id] { mainTargets[bit / 64] |= 1 << UInt64(bit % 64) }
      }
      for id in graph.order {
        guard let row = nodeIndex[id], !computed[row] else { continue }
        // Fields read in place: a node holds its whole step, too large to copy for two of them.
        let isCleanup = graph.nodes[row].isCleanup
        let dependencies = graph.nodes[row].dependencies.compactMap { nodeIndex[$0] }
        guard dependencies.allSatisfy({ computed[$0] }) else {
          fallback[id] = graph.ancestors(of: id)
          continue
        }
        bits.withUnsafeMutableBufferPointer { buffer in
          let base = row * words
          if isCleanup {
            for word in 0..<words { buffer[base + word] |= mainTargets[word] }
          }
          for dependency in dependencies {
            let source = dependency * words
            for word in 0..<words { buffer[base + word] |= buffer[source + word] }
            if let bit = targetIndex[graph.nodes[dependency].id] {
              buffer[base + bit / 64] |= 1 << UInt64(bit % 64)
            }
          }
        }
        computed[row] = true
      }
      self.targetIndex = targetIndex
      self.words = words
      self.bits = bits
      self.nodeIndex = nodeIndex
      self.fallback = fallback
    }

    /// True when `target` (one of the targets given) has run, or been skipped, before `id` starts.
    public func contains(_ target: String, before id: String) -> Bool {
      if let ancestors = fallback[id] { return ancestors.contains(target) }
      guard let bit = targetIndex[target], let row = nodeIndex[id] else { return false }
      return bits[row * words + bit / 64] & (1 << UInt64(bit % 64)) != 0
    }
  }

  /// The ancestry of `targets` over this graph.
  public func ancestry(of targets: Set<String>) -> Ancestry {
    Ancestry(graph: self, targets: targets)
  }
}
