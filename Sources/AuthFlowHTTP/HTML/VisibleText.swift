/// The visible text of a page being collected: whitespace collapsed to single spaces, a space
/// between blocks, none inside inline elements.
struct VisibleText {
  private(set) var output = ""
  private var pendingSpace = false

  /// The UTF-8 length so far, where a slice of the finished text starts or ends.
  var offset: Int { output.utf8.count }

  /// Marks a block boundary: the next word starts after a space.
  mutating func boundary() {
    pendingSpace = true
  }

  /// Appends a text node's content, collapsing whitespace.
  mutating func append(_ content: String) {
    guard let first = content.first else { return }
    if first.isWhitespace { pendingSpace = true }
    for word in content.split(whereSeparator: \.isWhitespace) {
      if pendingSpace && !output.isEmpty { output += " " }
      output += word
      pendingSpace = true
    }
    if let last = content.last, !last.isWhitespace { pendingSpace = false }
  }

  /// Collapses whitespace in a short text (titles, labels, option text).
  static func collapse(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The slice of `text` between two offsets, without surrounding spaces.
  static func slice(_ text: String, from start: Int, to end: Int) -> Substring {
    let utf8 = text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: min(start, utf8.count))
    let upper = utf8.index(utf8.startIndex, offsetBy: min(max(start, end), utf8.count))
    var slice = text[lower..<upper]
    while slice.first == " " { slice = slice.dropFirst() }
    while slice.last == " " { slice = slice.dropLast() }
    return slice
  }
}
