/// The flow graph of a scenario: steps are nodes, `needs` are edges (the previous step when a
/// step has no `needs`), cleanup steps come after all the others.
///
/// Built from any parsed scenario, valid or not: unknown `needs` are left out and cycles are
/// reported by `cycles` (the validator turns them into diagnostics), so drawing and checking
/// never trap.
public struct FlowGraph: Sendable {
  /// One step and the steps it waits for.
  public struct Node: Sendable {
    /// The step this node stands for.
    public var step: Step
    /// True for a step under `cleanup:`.
    public var isCleanup: Bool
    /// The ids this step waits for, in the order `needs` lists them. Cleanup steps only wait for
    /// other cleanup steps: every main step has finished before cleanup starts.
    public var dependencies: [String]

    /// The step's id.
    public var id: String { step.id.value }
  }

  /// The scenario's title.
  public let title: String
  /// Main steps in list order, then cleanup steps in list order.
  public let nodes: [Node]
  private let indexByID: [String: Int]
  private let dependentsByID: [String: [String]]

  public init(_ scenario: Scenario) {
    title = scenario.title.value
    var indexByID: [String: Int] = [:]
    let all = scenario.steps.map { ($0, false) } + scenario.cleanup.map { ($0, true) }
    for (offset, (step, _)) in all.enumerated() where indexByID[step.id.value] == nil {
      indexByID[step.id.value] = offset
    }
    let mainIDs = Set(scenario.steps.map(\.id.value))
    let cleanupIDs = Set(scenario.cleanup.map(\.id.value))
    var nodes: [Node] = []
    for list in [(scenario.steps, false), (scenario.cleanup, true)] {
      let (steps, isCleanup) = list
      let allowed = isCleanup ? cleanupIDs : mainIDs
      for (offset, step) in steps.enumerated() {
        var dependencies: [String]
        if let needs = step.needs {
          dependencies = []
          var listed: Set<String> = []
          for need in needs.map(\.value) where allowed.contains(need) && listed.insert(need).inserted {
            dependencies.append(need)
          }
        } else {
          dependencies = offset > 0 ? [steps[offset - 1].id.value] : []
        }
        nodes.append(Node(step: step, isCleanup: isCleanup, dependencies: dependencies))
      }
    }
    var dependents: [String: [String]] = [:]
    for node in nodes {
      for dependency in node.dependencies { dependents[dependency, default: []].append(node.id) }
    }
    self.nodes = nodes
    self.indexByID = indexByID
    self.dependentsByID = dependents
  }

  /// The node of the step `id`.
  public func node(_ id: String) -> Node? {
    indexByID[id].map { nodes[$0] }
  }

  /// The position of the step `id` in `nodes`.
  public func index(of id: String) -> Int? {
    indexByID[id]
  }

  /// The main steps, in list order.
  public var mainNodes: [Node] { nodes.filter { !$0.isCleanup } }

  /// The cleanup steps, in list order.
  public var cleanupNodes: [Node] { nodes.filter(\.isCleanup) }

  /// The steps `id` waits for directly.
  public func dependencies(of id: String) -> [String] {
    node(id)?.dependencies ?? []
  }

  /// The steps that wait for `id` directly, in list order.
  public func dependents(of id: String) -> [String] {
    dependentsByID[id] ?? []
  }

  /// Every step that has run (or been skipped) before `id` starts: its dependencies, theirs, and so
  /// on; for a cleanup step also every main step.
  public func ancestors(of id: String) -> Set<String> {
    var seen: Set<String> = []
    var stack = dependencies(of: id)
    while let next = stack.popLast() {
      guard seen.insert(next).inserted else { continue }
      stack.append(contentsOf: dependencies(of: next))
    }
    if node(id)?.isCleanup == true {
      seen.formUnion(mainNodes.map(\.id))
    }
    return seen
  }

  /// True when neither step waits, directly or not, for the other: they may run concurrently.
  public func areIndependent(_ first: String, _ second: String) -> Bool {
    first != second && !ancestors(of: first).contains(second) && !ancestors(of: second).contains(first)
  }

  /// Every step in an order that runs each after its dependencies: main steps first, then cleanup;
  /// among ready steps, list order. Steps caught in a cycle come last, in list order.
  public var order: [String] {
    let main = topologicalOrder(mainNodes)
    let cleanup = topologicalOrder(cleanupNodes)
    return main + cleanup
  }

  /// The main steps in waves: every step of a wave depends only on steps of earlier waves, so the
  /// steps of one wave can run concurrently. Steps caught in a cycle are left out.
  public var levels: [[String]] { levels(of: mainNodes) }

  /// The cleanup steps in waves, as `levels`.
  public var cleanupLevels: [[String]] { levels(of: cleanupNodes) }

  /// Kahn's algorithm with the ready steps in a min-heap of list positions: each time, the ready
  /// step listed first. O((steps + needs) log steps).
  private func topologicalOrder(_ subset: [Node]) -> [String] {
    var position: [String: Int] = [:]
    for (offset, node) in subset.enumerated() where position[node.id] == nil { position[node.id] = offset }
    var remaining = subset.map(\.dependencies.count)
    var ready = MinHeap()
    for (offset, count) in remaining.enumerated() where count == 0 { ready.insert(offset) }
    var done = [Bool](repeating: false, count: subset.count)
    var order: [String] = []
    order.reserveCapacity(subset.count)
    while let next = ready.popMin() {
      guard !done[next] else { continue }
      done[next] = true
      order.append(subset[next].id)
      for dependent in dependents(of: subset[next].id) {
        guard let offset = position[dependent], !done[offset] else { continue }
        remaining[offset] -= 1
        if remaining[offset] == 0 { ready.insert(offset) }
      }
    }
    for (offset, node) in subset.enumerated() where !done[offset] {
      done[offset] = true
      order.append(node.id)
    }
    return order
  }

  private func levels(of subset: [Node]) -> [[String]] {
    var level: [String: Int] = [:]
    let inCycle = Set(cycles.flatMap { $0 })
    level.reserveCapacity(subset.count)
    for id in topologicalOrder(subset) where !inCycle.contains(id) {
      let dependencies = dependencies(of: id)
      if dependencies.contains(where: { inCycle.contains($0) || level[$0] == nil }) { continue }
      level[id] = (dependencies.compactMap { level[$0] }.max() ?? -1) + 1
    }
    var waves: [[String]] = Array(repeating: [], count: (level.values.max() ?? -1) + 1)
    for node in subset {
      if let wave = level[node.id] { waves[wave].append(node.id) }
    }
    return waves
  }
}
