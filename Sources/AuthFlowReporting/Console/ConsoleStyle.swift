import AuthFlowResults

/// Colors for the console, or none.
struct ConsoleStyle: Sendable, Hashable {
  enum Color: String, Sendable {
    case green = "32"
    case red = "31"
    case yellow = "33"
    case magenta = "35"
    case bold = "1"
    case dim = "2"
  }

  var colors: Bool

  /// Colors only on a terminal, never when `NO_COLOR` is set to anything non-empty
  /// (https://no-color.org) or the terminal is `dumb`.
  static func resolve(environment: [String: String], isTerminal: Bool) -> ConsoleStyle {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    return ConsoleStyle(colors: isTerminal && !noColor && environment["TERM"] != "dumb")
  }

  func paint(_ text: String, _ color: Color) -> String {
    colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
  }

  func color(for status: Status) -> Color {
    switch status {
    case .passed: .green
    case .failed: .red
    case .skipped: .yellow
    case .error: .magenta
    case .interrupted: .red
    }
  }

  /// The status mark in its color.
  func mark(_ status: Status) -> String { paint(status.mark, color(for: status)) }
}
