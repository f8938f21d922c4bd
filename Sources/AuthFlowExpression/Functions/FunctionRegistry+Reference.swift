import AuthFlowCore

extension FunctionRegistry {
  /// A Markdown table of every function: signature, summary, and its examples with their results
  /// (secret results are marked, not hidden: examples hold no real secrets). The project's docs
  /// and `authflow` help print this; a snapshot test keeps it reviewed.
  public var markdownReference: String {
    var lines = ["| function | what it gives | examples |", "|---|---|---|"]
    for function in sorted {
      let kind = type(of: function)
      let examples = kind.examples.map { example in
        "`\(example.expression)` → `\(Self.describe(example.result))`"
      }
      let cells = [kind.signature, kind.summary, examples.joined(separator: "<br>")].map(Self.escapeCell)
      lines.append("| `\(cells[0])` | \(cells[1]) | \(cells[2]) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func describe(_ value: Value) -> String {
    value.isSecret ? "secret " + value.revealed.jsonText() : value.jsonText()
  }

  private static func escapeCell(_ text: String) -> String {
    text.replacingPipes()
  }
}

extension String {
  fileprivate func replacingPipes() -> String {
    var result = ""
    for character in self { result += character == "|" ? "\\|" : String(character) }
    return result
  }
}
