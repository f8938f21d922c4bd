/// HTML escaping for text and attribute values (`&`, `<`, `>`, quotes). Control characters other
/// than tab and newline become visible `\u{1B}` text, as in the JUnit report.
enum HTMLEscaping {
  static func escape(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      case "\n", "\t": output.unicodeScalars.append(scalar)
      case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
        output += "\\u{" + String(control.value, radix: 16, uppercase: true) + "}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// ` name="value"` pairs, escaped, in the given order.
  static func attributes(_ pairs: [(String, String)]) -> String {
    pairs.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
  }
}
