import AuthFlowCore

extension Matcher.Kind {
  /// `lt`.
  public static let lt = Self(LtMatcher())
}

/// `lt: <number or string>`: less than the operand.
struct LtMatcher: MatcherRule {
  let name = "lt"
  let operand = MatcherOperand.numberOrString
  let documentation = "is less than it (\(OrderingComparison.documentationNote))"
  let examples: [MatcherExample] = [
    .holds("b", for: "a"),
    .fails(3, for: 3, with: "expected value to be less than 3, found 3"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    OrderingComparison.failure("to be less than", expected: expected, actual: actual) { $0 < 0 }
  }
}
