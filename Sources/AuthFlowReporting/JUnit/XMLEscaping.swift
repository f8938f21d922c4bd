/// XML 1.0 escaping for element text and attribute values.
enum XMLEscaping {
  /// Escapes `&`, `<`, `>`; in attributes also quotes and the whitespace that attribute-value
  /// normalization would otherwise fold into spaces. Characters XML 1.0 cannot carry at all (C0
  /// controls other than tab, newline and return; U+FFFE, U+FFFF) become visible `\u{1B}` text.
  static func escape(_ text: String, attribute: Bool = false) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"" where attribute: output += "&quot;"
      case "'" where attribute: output += "&apos;"
      case "\n" where attribute: output += "&#10;"
      case "\t" where attribute: output += "&#9;"
      case "\r": output += "&#13;"
      case "\n", "\t": output.unicodeScalars.append(scalar)
      case let control where control.value < 0x20 || control.value == 0xFFFE || control.value == 0xFFFF:
        output += "\\u{" + String(control.value, radix: 16, uppercase: true) + "}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// ` name="value"` pairs, escaped, in the given order.
  static func attributes(_ pairs: [(String, String)]) -> String {
    pairs.map { " \($0.0)=\"\(escape($0.1, attribute: true))\"" }.joined()
  }
}
