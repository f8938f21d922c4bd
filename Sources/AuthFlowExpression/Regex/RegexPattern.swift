import AuthFlowCore

/// A regular expression that matches in linear time: the engine behind `matches()` and the
/// `matches` matcher (docs/functions.md, "Regular expressions", gives the dialect).
///
/// Compiled once; `Sendable` and immutable, so any number of evaluations share one.
public struct RegexPattern: Sendable {
  private let machine: RegexMachine
  /// How many capturing groups the pattern has.
  public let groupCount: Int

  /// Compiles `pattern`; throws for syntax this engine does not accept, naming the construct.
  public init(_ pattern: String) throws(RegexSyntaxError) {
    let (tree, captures) = try RegexParser.parseCounting(pattern)
    machine = RegexMachine(program: try RegexProgram.compile(tree, captures: captures))
    groupCount = captures
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

  /// A match's text and its groups' (nil: the group took no part in the match).
  public struct Match: Sendable, Equatable {
    public var text: String
    public var groups: [String?]

    /// Group `index` (1-based), or the whole match for 0.
    public func group(_ index: Int) -> String? {
      index == 0 ? text : (groups.indices.contains(index - 1) ? groups[index - 1] : nil)
    }
  }

  /// The leftmost match in `text`, preferring as Perl and RE2 do (first alternative, greedy
  /// repetitions long, lazy ones short); nil when there is none, the text is longer than
  /// ``InputLimits/regexInputLength`` characters, or the task was cancelled.
  public func firstMatch(in text: String) -> Match? {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count <= InputLimits.regexInputLength else { return nil }
    guard case .match(let slots) = machine.firstMatch(scalars) else { return nil }
    func slice(_ group: Int) -> String? {
      let start = slots[2 * group]
      let end = slots[2 * group + 1]
      guard start >= 0, end >= start else { return nil }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[start..<end])
      return String(view)
    }
    return Match(text: slice(0) ?? "", groups: (0..<groupCount).map { slice($0 + 1) })
  }

  /// Whether the pattern matches somewhere in `text` (false when too long or cancelled).
  public func matches(_ text: String) -> Bool {
    search(text) == .match
  }
}
