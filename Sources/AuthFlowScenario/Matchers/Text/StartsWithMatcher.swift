import AuthFlowCore

extension Matcher.Kind {
  /// `starts_with`.
  public static let startsWith = Self(StartsWithMatcher())
}

/// `starts_with: <string>`: a string starting with it.
struct StartsWithMatcher: MatcherRule {
  let name = "starts_with"
  let operand = MatcherOperand.string
  let documentation = "is a string starting with it"
  let examples: [MatcherExample] = [
    .holds("application/json", for: "application/json; charset=utf-8"),
    .fails(
      "application/json", for: "text/html",
      with: #"expected value to start with "application/json", found "text/html""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let text = actual?.stringValue, let prefix = expected.stringValue, text.hasPrefix(prefix) else {
      return "to start with"
    }
    return nil
  }
}
