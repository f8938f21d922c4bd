import AuthFlowCore
import AuthFlowExpression

extension Matcher.Kind {
  /// `matches`.
  public static let matches = Self(MatchesMatcher())
}

/// `matches: <regex>`: a string the regular expression finds a match in (linear time, RE2's
/// dialect).
struct MatchesMatcher: MatcherRule {
  let name = "matches"
  let operand = MatcherOperand.regularExpression
  let documentation =
    "is a string matching the regular expression (linear-time, RE2's dialect: "
    + "[Regular expressions](functions.md#regular-expressions))"
  let examples: [MatcherExample] = [
    .holds("^auth0\\|", for: "auth0|123"),
    .fails("^b", for: "abc", with: #"expected value to match "^b", found "abc""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    switch RegexOutcome.of(pattern: expected, actual: actual) {
    case .decided(let matched): return matched ? nil : "to match"
    case .undecided(let why): return MatcherFailure("to match", note: why)
    }
  }
}

/// Whether a regular expression matched, or why that cannot be said (then neither `matches` nor
/// `not_matches` holds). A value that is not a string (or is absent) matches nothing.
enum RegexOutcome {
  case decided(Bool)
  case undecided(String)

  static func of(pattern: Value, actual: Value?) -> RegexOutcome {
    guard let pattern = pattern.stringValue else { return .undecided("the pattern is not a string") }
    guard let regex = try? RegexPattern.cached(pattern) else {
      return .undecided("the pattern is not a valid regular expression")
    }
    guard let text = actual?.stringValue else { return .decided(false) }
    switch regex.search(text) {
    case .match: return .decided(true)
    case .noMatch: return .decided(false)
    case .textTooLong: return .undecided("the text is longer than \(InputLimits.regexInputLength) characters")
    case .cancelled: return .undecided("the match was stopped: the step timed out or the run was interrupted")
    }
  }
}
