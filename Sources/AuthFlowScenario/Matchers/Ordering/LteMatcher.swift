import AuthFlowCore

extension Matcher.Kind {
  /// `lte`.
  public static let lte = Self(LteMatcher())
}

/// `lte: <number or string>`: less than or equal to the operand.
struct LteMatcher: MatcherRule {
  let name = "lte"
  let operand = MatcherOperand.numberOrString
  let documentation = "is less than or equal to it (\(OrderingComparison.documentationNote))"
  let examples: [MatcherExample] = [
    .holds(3, for: 3),
    .fails(2, for: 3, with: "expected value to be at most 2, found 3"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    OrderingComparison.failure("to be at most", expected: expected, actual: actual) { $0 <= 0 }
  }
}
