import AuthFlowCore

extension Matcher.Kind {
  /// `not_starts_with`.
  public static let notStartsWith = Self(NotStartsWithMatcher())
}

/// `not_starts_with: <string>`: holds exactly where `starts_with` does not.
struct NotStartsWithMatcher: MatcherRule {
  let name = "not_starts_with"
  let isNegation = true
  let operand = MatcherOperand.string
  let documentation = "is not a string starting with it (an absent value or a number starts with nothing)"
  let examples: [MatcherExample] = [
    .holds("http://", for: "https://tenant.example.com/"),
    .holds("auth0|", for: 42),
    .fails(
      "http://", for: "http://tenant.example.com/",
      with: #"expected value not to start with "http://", found "http://tenant.example.com/""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    if StartsWithMatcher().failure(expected: expected, actual: actual) == nil { return "not to start with" }
    return nil
  }
}
