public import AuthFlowResults

/// What the progress line of `authflow run` shows: `12/58 done, 1 failed · running: Login works,
/// Refresh rotates`, cut to the terminal's width.
///
/// Every scenario the run reaches is counted when it finishes, those skipped before their first
/// step (a missing capability, another tenant, no chromium) too: a run that is not stopped ends at
/// `total/total done`.
public struct ProgressLine: Sendable, Hashable {
  /// How many scenario instances the run selected.
  public var total: Int
  public private(set) var done = 0
  public private(set) var failed = 0
  public private(set) var errors = 0
  /// The scenarios running now, in the order they started (file, name).
  private var running: [Entry] = []

  private struct Entry: Sendable, Hashable {
    var file: String
    var name: String
  }

  public init(total: Int) {
    self.total = total
  }

  public mutating func started(name: String, file: String) {
    running.append(Entry(file: file, name: name))
  }

  public mutating func finished(name: String, file: String, status: Status) {
    if let index = running.firstIndex(of: Entry(file: file, name: name)) { running.remove(at: index) }
    done += 1
    switch status {
    case .failed: failed += 1
    case .error: errors += 1
    default: break
    }
  }

  /// The line's text in at most `width - 1` terminal columns (a character in the last column
  /// would wrap on some terminals), names passed through `sanitize` (secrets masked, control
  /// characters shown as escapes) when drawn, since a secret may be learnt after its scenario
  /// started. A name that does not fit is cut with `…`.
  public func text(width: Int, sanitize: (String) -> String = { $0 }) -> String {
    var line = "\(done)/\(total) done, \(failed) failed"
    if errors > 0 { line += ", \(errors) error\(errors == 1 ? "" : "s")" }
    if !running.isEmpty {
      line += " · running: " + running.map { sanitize($0.name) }.joined(separator: ", ")
    }
    return Self.fit(line, columns: max(width - 1, 1))
  }

  /// `text` cut to `columns` terminal columns, ending in `…` when cut. A character outside the
  /// narrow ranges counts as two columns (CJK, emoji), so the result never exceeds `columns`.
  static func fit(_ text: String, columns: Int) -> String {
    var used = 0
    var result = ""
    for character in text {
      let width = columnWidth(character)
      if used + width > columns {
        // Make room for the ellipsis (one column).
        while used + 1 > columns, let last = result.popLast() { used -= columnWidth(last) }
        return result + "…"
      }
      used += width
      result.append(character)
    }
    return result
  }

  static func columnWidth(_ character: Character) -> Int {
    character.unicodeScalars.contains { $0.value >= 0x1100 && !(0x2000...0x206F).contains($0.value) } ? 2 : 1
  }
}
