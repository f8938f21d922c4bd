import AuthFlowCore

extension Matcher.Kind {
  /// `one_of`.
  public static let oneOf = Self(OneOfMatcher())
}

/// `one_of: [<value>, …]`: equals one element of the list.
struct OneOfMatcher: MatcherRule {
  let name = "one_of"
  let operand = MatcherOperand.list
  let documentation = "equals one element of the list"
  let examples: [MatcherExample] = [
    .holds(["code", "token"], for: "code"),
    .fails(["a", "b"], for: "c", with: #"expected value to be one of ["a","b"], found "c""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let options = expected.arrayValue else { return MatcherFailure("to be one of", note: "one_of needs a list") }
    guard let actual, options.contains(where: { actual.matches($0) }) else { return "to be one of" }
    return nil
  }
}
