import AuthFlowCore

extension Matcher.Kind {
  /// `not_equals`.
  public static let notEquals = Self(NotEqualsMatcher())
}

/// `not_equals: <value>`: the value does not equal the operand; an absent value equals nothing.
struct NotEqualsMatcher: MatcherRule {
  let name = "not_equals"
  let isNegation = true
  let operand = MatcherOperand.any
  let documentation = "does not equal it (an absent value equals nothing)"
  let examples: [MatcherExample] = [
    .holds("a", for: "b"),
    .fails(200, for: 200, with: "expected value not to equal 200, found 200"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    if let actual, actual.matches(expected) { return "not to equal" }
    return nil
  }
}
