/// A layered drawing of a flow graph: where each step's box goes and how each edge runs, in
/// abstract units (the HTML report scales them to SVG pixels).
///
/// The layout works on plain items (an id, the ids it waits for, whether it is a cleanup step), so
/// that it is the same from a parsed scenario (``FlowGraph/layout``) and from a report that only
/// kept each step's `needs`. Main steps come first, top to bottom; cleanup steps below them, reached
/// from the main flow's last steps by "always" edges, as `authflow graph` draws them.
///
/// - Layers: a step sits one layer below the deepest step it waits for (longest path), so every
///   edge points down.
/// - Order within a layer: list order, then four sweeps of the barycenter heuristic (each box moves
///   towards the mean position of its neighbours in the layer above, then below), which removes most
///   crossings of typical flows; ties keep list order, so the drawing is deterministic.
/// - Positions: each layer is centred on the widest one.
///
/// Bounded: linear in steps and edges per sweep. Items caught in a cycle (which the validator
/// rejects) are placed by list order instead of trapping.
public struct GraphLayout: Sendable, Hashable {
  /// One step as the layout sees it.
  public struct Item: Sendable, Hashable {
    public var id: String
    public var dependencies: [String]
    public var isCleanup: Bool

    public init(id: String, dependencies: [String], isCleanup: Bool) {
      self.id = id
      self.dependencies = dependencies
      self.isCleanup = isCleanup
    }
  }

  /// A step's box: its layer (row) and position in it, and its centre in layout units.
  public struct Box: Sendable, Hashable {
    public var id: String
    public var isCleanup: Bool
    public var layer: Int
    public var position: Int
    public var x: Double
    public var y: Double
  }

  /// An edge from a step to one that waits for it; `always` for the edges from the end of the
  /// main flow into cleanup.
  public struct Edge: Sendable, Hashable {
    public var from: String
    public var to: String
    public var always: Bool
  }

  /// Box size and gaps, in layout units.
  public static let boxWidth = 200.0
  public static let boxHeight = 48.0
  public static let horizontalGap = 28.0
  public static let verticalGap = 44.0
  /// Room above the first layer of cleanup for its frame's title.
  public static let cleanupGap = 30.0

  /// Boxes in item order.
  public let boxes: [Box]
  public let edges: [Edge]
  /// The drawing's size, boxes' margins included.
  public let width: Double
  public let height: Double
  /// The first layer of cleanup steps (the number of main layers).
  public let cleanupLayer: Int
  private let indexByID: [String: Int]

  public init(_ items: [Item]) {
    var seen: Set<String> = []
    let unique = items.filter { seen.insert($0.id).inserted }
    let main = unique.filter { !$0.isCleanup }
    let cleanup = unique.filter(\.isCleanup)
    let mainLayers = Self.layers(of: main)
    let cleanupLayers = Self.layers(of: cleanup)
    let mainDepth = (mainLayers.values.max() ?? -1) + 1
    var layerOf: [String: Int] = mainLayers
    for (id, layer) in cleanupLayers { layerOf[id] = layer + mainDepth }

    var edges: [Edge] = []
    let ids = Set(unique.map(\.id))
    for item in unique {
      for dependency in item.dependencies where ids.contains(dependency) && dependency != item.id {
        edges.append(Edge(from: dependency, to: item.id, always: false))
      }
    }
    if !cleanup.isEmpty {
      let waitedFor = Set(edges.filter { !$0.always }.map(\.from))
      let sinks = main.filter { !waitedFor.contains($0.id) }
      let roots = cleanup.filter { item in !item.dependencies.contains { ids.contains($0) && $0 != item.id } }
      for sink in sinks {
        for root in roots { edges.append(Edge(from: sink.id, to: root.id, always: true)) }
      }
    }

    // Rows in list order, then barycenter sweeps.
    let depth = (layerOf.values.max() ?? -1) + 1
    var rows = [[String]](repeating: [], count: depth)
    for item in unique { rows[layerOf[item.id] ?? 0].append(item.id) }
    var above: [String: [String]] = [:]
    var below: [String: [String]] = [:]
    for edge in edges {
      above[edge.to, default: []].append(edge.from)
      below[edge.from, default: []].append(edge.to)
    }
    for sweep in 0..<4 {
      let downward = sweep % 2 == 0
      let order = downward ? Array(rows.indices.dropFirst()) : Array(rows.indices.dropLast().reversed())
      for row in order {
        let reference = rows[downward ? row - 1 : row + 1]
        var position: [String: Double] = [:]
        for (index, id) in reference.enumerated() { position[id] = Double(index) }
        let current = rows[row]
        let keyed = current.enumerated().map { index, id -> (Double, Int, String) in
          let neighbours = (downward ? above[id] : below[id])?.compactMap { position[$0] } ?? []
          let center = neighbours.isEmpty ? Double(index) : neighbours.reduce(0, +) / Double(neighbours.count)
          return (center, index, id)
        }
        rows[row] = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
      }
    }

    let widest = rows.map(\.count).max() ?? 0
    let step = Self.boxWidth + Self.horizontalGap
    let width = max(Double(widest) * step - Self.horizontalGap, Self.boxWidth) + 2 * Self.horizontalGap
    var placed: [String: Box] = [:]
    for (layer, row) in rows.enumerated() {
      let rowWidth = Double(row.count) * step - Self.horizontalGap
      let left = (width - rowWidth) / 2
      let cleanupOffset = layer >= mainDepth && !cleanup.isEmpty ? Self.cleanupGap : 0
      for (position, id) in row.enumerated() {
        placed[id] = Box(
          id: id, isCleanup: layer >= mainDepth, layer: layer, position: position,
          x: left + Double(position) * step + Self.boxWidth / 2,
          y: Self.verticalGap / 2 + cleanupOffset + Double(layer) * (Self.boxHeight + Self.verticalGap) + Self.boxHeight
            / 2)
      }
    }
    self.boxes = unique.compactMap { placed[$0.id] }
    self.indexByID = Dictionary(boxes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    self.cleanupLayer = mainDepth
    self.edges = edges
    self.width = width
    self.height =
      Double(depth) * (Self.boxHeight + Self.verticalGap) + (cleanup.isEmpty ? 0 : Self.cleanupGap)
  }

  /// The box of step `id`.
  public func box(_ id: String) -> Box? { indexByID[id].map { boxes[$0] } }

  /// The top of the cleanup frame (above its first layer), in layout units.
  public var cleanupTop: Double {
    Double(cleanupLayer) * (Self.boxHeight + Self.verticalGap) + Self.verticalGap / 2
  }

  /// The longest-path layer of each item among `items` (dependencies outside them are ignored);
  /// items in a cycle get the layer after the deepest placed one, in list order.
  static func layers(of items: [Item]) -> [String: Int] {
    let ids = Set(items.map(\.id))
    var remaining: [String: Int] = [:]
    var dependants: [String: [String]] = [:]
    for item in items {
      let dependencies = Set(item.dependencies.filter { ids.contains($0) && $0 != item.id })
      remaining[item.id] = dependencies.count
      for dependency in dependencies { dependants[dependency, default: []].append(item.id) }
    }
    var layer: [String: Int] = [:]
    var ready = items.filter { remaining[$0.id] == 0 }.map(\.id)
    for id in ready { layer[id] = 0 }
    var next = 0
    while next < ready.count {
      let id = ready[next]
      next += 1
      for dependant in dependants[id] ?? [] {
        layer[dependant] = max(layer[dependant] ?? 0, (layer[id] ?? 0) + 1)
        remaining[dependant, default: 0] -= 1
        if remaining[dependant] == 0 { ready.append(dependant) }
      }
    }
    var deepest = (layer.values.max() ?? -1) + 1
    for item in items where remaining[item.id, default: 0] > 0 {
      layer[item.id] = deepest
      deepest += 1
    }
    return layer
  }
}

extension FlowGraph {
  /// The graph's layered drawing (see ``GraphLayout``).
  public var layout: GraphLayout {
    GraphLayout(nodes.map { GraphLayout.Item(id: $0.id, dependencies: $0.dependencies, isCleanup: $0.isCleanup) })
  }
}
