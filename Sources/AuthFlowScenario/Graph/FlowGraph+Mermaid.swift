extension FlowGraph {
  /// The graph as a Mermaid flowchart (`flowchart TD`): one box per step with its id, name and
  /// action; conditional steps as hexagons, edges into them dotted; cleanup in a subgraph reached
  /// by dotted "always" edges. The output is deterministic.
  public var mermaid: String {
    let names = MermaidNames(nodes.map(\.id))
    var lines = ["flowchart TD"]
    func box(_ node: Node, indent: String) -> String {
      let label = ([node.heading] + node.details).map(Self.mermaidEscape).joined(separator: "<br/>")
      let name = names[node.id]
      return node.step.condition == nil
        ? "\(indent)\(name)[\"\(label)\"]" : "\(indent)\(name){{\"\(label)\"}}"
    }
    func edges(_ node: Node, indent: String) -> [String] {
      let arrow = node.step.condition == nil ? "-->" : "-.->"
      return node.dependencies.map { "\(indent)\(names[$0]) \(arrow) \(names[node.id])" }
    }
    for node in mainNodes { lines.append(box(node, indent: "  ")) }
    for node in mainNodes { lines.append(contentsOf: edges(node, indent: "  ")) }
    if !cleanupNodes.isEmpty {
      lines.append("  subgraph cleanup_steps [\"cleanup (always runs)\"]")
      for node in cleanupNodes { lines.append(box(node, indent: "    ")) }
      for node in cleanupNodes { lines.append(contentsOf: edges(node, indent: "    ")) }
      lines.append("  end")
      for sink in mainSinks {
        for root in cleanupRoots { lines.append("  \(names[sink.id]) -.->|always| \(names[root.id])") }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func mermaidEscape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\"": escaped += "#quot;"
      case "<": escaped += "#lt;"
      case ">": escaped += "#gt;"
      case "\n": escaped += " "
      default: escaped.append(character)
      }
    }
    return escaped
  }
}

/// Mermaid node names for step ids: letters, digits and `_`, never a Mermaid keyword, unique.
private struct MermaidNames {
  private var names: [String: String] = [:]
  private static let keywords: Set<String> = [
    "end", "graph", "subgraph", "flowchart", "style", "class", "click", "cleanup_steps",
  ]

  init(_ ids: [String]) {
    var used: Set<String> = []
    for id in ids where names[id] == nil {
      var base = String(id.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
      if base.isEmpty || Self.keywords.contains(base.lowercased()) { base = "step_" + base }
      var name = base
      var counter = 2
      while used.contains(name) {
        name = "\(base)_\(counter)"
        counter += 1
      }
      used.insert(name)
      names[id] = name
    }
  }

  subscript(id: String) -> String { names[id] ?? id }
}
