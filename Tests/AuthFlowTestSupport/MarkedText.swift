/// Text with position markers, so tests name expected diagnostic positions in the input instead
/// of counting lines and columns by hand.
///
/// A marker is `1️⃣`…`9️⃣` (or `⓪`-style `⟨name⟩`) placed just before the character it points
/// at; the markers are removed from `text` and their 1-based line and column are in `markers`.
///
/// ```swift
/// let input = MarkedText("""
///   scenario: x
///   steps:
///     - 1️⃣expct: {}
///   """)
/// // input.markers["1️⃣"] == (line: 3, column: 5)
/// ```
public struct MarkedText: Sendable {
  public let text: String
  public let markers: [String: Position]

  public struct Position: Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public var description: String { "\(line):\(column)" }
  }

  private static let emojiMarkers: Set<Character> = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  public init(_ marked: String) {
    var output = ""
    var markers: [String: Position] = [:]
    var line = 1
    var column = 1
    var iterator = Array(marked)[...]
    while let character = iterator.first {
      iterator = iterator.dropFirst()
      if Self.emojiMarkers.contains(character) {
        markers[String(character)] = Position(line: line, column: column)
        continue
      }
      if character == "⟨", let end = iterator.firstIndex(of: "⟩") {
        markers[String(iterator[..<end])] = Position(line: line, column: column)
        iterator = iterator[(end + 1)...]
        continue
      }
      output.append(character)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    self.text = output
    self.markers = markers
  }

  /// The position of `marker`; traps in tests when the marker is missing.
  public subscript(marker: String) -> Position {
    guard let position = markers[marker] else {
      preconditionFailure("marker \(marker) is not in the text")
    }
    return position
  }
}
