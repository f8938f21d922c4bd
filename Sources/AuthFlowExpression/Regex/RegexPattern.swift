import AuthFlowCore

/// A regular expression that matches in linear time: the engine behind `matches()` and the
/// `matches` matcher (docs/functions.md, "Regular expressions", gives the dialect).
///
/// Compiled once; `Sendable` and immutable, so any number of evaluations share one.
public struct RegexPattern: Sendable {
  private let machine: RegexMachine

  /// Compiles `pattern`; throws for syntax this engine does not accept, naming the construct.
  public init(_ pattern: String) throws(RegexSyntaxError) {
    let tree = try RegexParser.parse(pattern)
    machine = RegexMachine(program: try RegexProgram.compile(tree))
  }

  /// What one search found.
  public enum Outcome: Sendable, Equatable {
    case match, noMatch
    /// The text is longer than ``InputLimits/regexInputLength`` characters.
    case textTooLong
    /// The running task was cancelled (a timeout, Ctrl-C) before the search finished.
    case cancelled
  }

  /// Searches `text` for a match anywhere (anchor with `^` and `$`).
  public func search(_ text: String) -> Outcome {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count <= InputLimits.regexInputLength else { return .textTooLong }
    switch machine.search(scalars) {
    case true?: return .match
    case false?: return .noMatch
    case nil: return .cancelled
    }
  }

  /// Whether the pattern matches somewhere in `text` (false when too long or cancelled).
  public func matches(_ text: String) -> Bool {
    search(text) == .match
  }
}
