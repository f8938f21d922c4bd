import AuthFlowCore

extension Matcher.Kind {
  /// `not_one_of`.
  public static let notOneOf = Self(NotOneOfMatcher())
}

/// `not_one_of: [<value>, …]`: equals no element of the list.
struct NotOneOfMatcher: MatcherRule {
  let name = "not_one_of"
  let isNegation = true
  let operand = MatcherOperand.list
  let documentation = "equals no element of the list"
  let examples: [MatcherExample] = [
    .holds(["disabled", "blocked"], for: "active"),
    .fails([1, 2], for: 2.0, with: "expected value not to be one of [1,2], found 2"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let options = expected.arrayValue else {
      return MatcherFailure("not to be one of", note: "not_one_of needs a list")
    }
    if let actual, options.contains(where: { actual.matches($0) }) { return "not to be one of" }
    return nil
  }
}
