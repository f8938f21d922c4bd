import AuthFlowCore

extension Matcher.Kind {
  /// `not_matches`.
  public static let notMatches = Self(NotMatchesMatcher())
}

/// `not_matches: <regex>`: holds where `matches` does not, except that a regular expression that
/// cannot be run fails both.
struct NotMatchesMatcher: MatcherRule {
  let name = "not_matches"
  let isNegation = true
  let operand = MatcherOperand.regularExpression
  let documentation =
    "is not a string matching the regular expression (an absent value or a number matches nothing)"
  let examples: [MatcherExample] = [
    .holds("^dis", for: "active"),
    .holds("\\d", for: 3),
    .fails("^act", for: "active", with: #"expected value not to match "^act", found "active""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    switch RegexOutcome.of(pattern: expected, actual: actual) {
    case .decided(let matched): return matched ? "not to match" : nil
    case .undecided(let why): return MatcherFailure("not to match", note: why)
    }
  }
}
