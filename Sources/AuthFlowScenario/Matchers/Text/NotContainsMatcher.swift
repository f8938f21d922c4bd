import AuthFlowCore

extension Matcher.Kind {
  /// `not_contains`.
  public static let notContains = Self(NotContainsMatcher())
}

/// `not_contains: <value>`: holds exactly where `contains` does not.
struct NotContainsMatcher: MatcherRule {
  let name = "not_contains"
  let isNegation = true
  let operand = MatcherOperand.any
  let documentation =
    "is not a string containing it, a list with an equal element, or an object with that key (an absent value "
    + "contains nothing)"
  let examples: [MatcherExample] = [
    .holds("email", for: "openid profile"),
    .fails("admin", for: ["admin", "user"], with: #"expected value not to contain "admin", found ["admin","user"]"#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    if let actual, ContainsMatcher.contains(actual, expected) { return "not to contain" }
    return nil
  }
}
