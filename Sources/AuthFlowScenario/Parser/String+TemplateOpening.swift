import Foundation

extension String {
  /// Whether the text contains `${{`, exactly as Foundation's `contains("${{")` decides — which
  /// compares Unicode text, so a `${{` whose last brace carries a combining mark (`{\u{301}`) does
  /// not count — but without Foundation's string search for the usual text: plain ASCII, or no
  /// `$`, `{`, `{` bytes in a row at all.
  var containsTemplateOpening: Bool {
    var matched = 0
    var ascii = true
    var found = false
    for byte in utf8 {
      ascii = ascii && byte < 0x80
      switch (matched, byte) {
      case (2, UInt8(ascii: "{")): found = true
      case (_, UInt8(ascii: "$")): matched = 1
      case (1, UInt8(ascii: "{")): matched = 2
      default: matched = 0
      }
    }
    guard found else { return false }
    return ascii || contains("${{")
  }
}
