extension FlowGraph {
  /// The graph in Graphviz `dot`: one box per step; conditional steps dashed and their incoming
  /// edges dashed; steps with `retry` drawn with a double border; cleanup in a dashed cluster
  /// reached by dotted "always" edges. The output is deterministic.
  public var dot: String {
    var lines = ["digraph \(Self.dotQuote(title)) {", "  rankdir=TB;", "  node [shape=box, style=rounded];"]
    func box(_ node: Node, indent: String) -> String {
      var attributes = ["label=\(Self.dotQuote(([node.heading] + node.details).joined(separator: "\n")))"]
      if node.step.condition != nil { attributes.append("style=\"rounded,dashed\"") }
      if node.step.retry != nil { attributes.append("peripheries=2") }
      return "\(indent)\(Self.dotQuote(node.id)) [\(attributes.joined(separator: ", "))];"
    }
    func edges(_ node: Node, indent: String) -> [String] {
      let style = node.step.condition == nil ? "" : " [style=dashed]"
      return node.dependencies.map { "\(indent)\(Self.dotQuote($0)) -> \(Self.dotQuote(node.id))\(style);" }
    }
    for node in mainNodes { lines.append(box(node, indent: "  ")) }
    for node in mainNodes { lines.append(contentsOf: edges(node, indent: "  ")) }
    if !cleanupNodes.isEmpty {
      lines.append("  subgraph cluster_cleanup {")
      lines.append("    label=\"cleanup (always runs)\";")
      lines.append("    style=dashed;")
      for node in cleanupNodes { lines.append(box(node, indent: "    ")) }
      for node in cleanupNodes { lines.append(contentsOf: edges(node, indent: "    ")) }
      lines.append("  }")
      for sink in mainSinks {
        for root in cleanupRoots {
          lines.append("  \(Self.dotQuote(sink.id)) -> \(Self.dotQuote(root.id)) [style=dotted, label=\"always\"];")
        }
      }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  static func dotQuote(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      switch character {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      case "\n": quoted += "\\n"
      default: quoted.append(character)
      }
    }
    return quoted + "\""
  }
}
