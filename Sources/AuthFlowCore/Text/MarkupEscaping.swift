/// Escaping for HTML and XML 1.0 text and attribute values: the one implementation the HTML
/// report, the JUnit report and the mock tenant's pages share.
///
/// Characters a document cannot carry as they are (controls other than tab and newline) become
/// visible `\u{1B}` text, so a report shows what a response held instead of breaking or hiding it.
public enum MarkupEscaping {
  /// Where the escaped text goes.
  public enum Context: Sendable {
    /// HTML element text or a quoted attribute value (either quote): `& < > " '` are escaped.
    case html
    /// XML element text: `& < >` and carriage return are escaped.
    case xmlText
    /// An XML attribute value: also quotes, and the tab, newline and return that
    /// attribute-value normalization would otherwise fold into spaces.
    case xmlAttribute
  }

  /// `text` escaped for `context`.
  public static func escape(_ text: String, for context: Context) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let replacement = replacement(for: scalar, in: context) {
        output += replacement
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// ` name="value"` pairs, each value escaped for an attribute of `context`'s language, in the
  /// given order.
  public static func attributes(_ pairs: [(String, String)], for context: Context) -> String {
    let attribute: Context = context == .html ? .html : .xmlAttribute
    return pairs.map { " \($0.0)=\"\(escape($0.1, for: attribute))\"" }.joined()
  }

  /// HTML element text or attribute value.
  public static func html(_ text: String) -> String { escape(text, for: .html) }

  /// XML element text, or (`attribute`) an XML attribute value.
  public static func xml(_ text: String, attribute: Bool = false) -> String {
    escape(text, for: attribute ? .xmlAttribute : .xmlText)
  }

  /// ` name="value"` pairs for an HTML element.
  public static func htmlAttributes(_ pairs: [(String, String)]) -> String { attributes(pairs, for: .html) }

  /// ` name="value"` pairs for an XML element.
  public static func xmlAttributes(_ pairs: [(String, String)]) -> String { attributes(pairs, for: .xmlAttribute) }

  private static func replacement(for scalar: Unicode.Scalar, in context: Context) -> String? {
    let attribute = context == .xmlAttribute
    switch scalar {
    case "&": return "&amp;"
    case "<": return "&lt;"
    case ">": return "&gt;"
    case "\"" where context == .html || attribute: return "&quot;"
    case "'" where context == .html: return "&#39;"
    case "'" where attribute: return "&apos;"
    case "\n" where attribute: return "&#10;"
    case "\t" where attribute: return "&#9;"
    case "\r" where context != .html: return "&#13;"
    case "\n", "\t": return nil
    default: return isInvisible(scalar, in: context) ? visible(scalar) : nil
    }
  }

  /// C0 controls (and in HTML, DEL and the C1 controls; in XML, U+FFFE and U+FFFF, which XML 1.0
  /// cannot carry at all).
  private static func isInvisible(_ scalar: Unicode.Scalar, in context: Context) -> Bool {
    if scalar.value < 0x20 { return true }
    switch context {
    case .html: return (0x7F...0x9F).contains(scalar.value)
    case .xmlText, .xmlAttribute: return scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }
  }

  private static func visible(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
  }
}
