import AuthFlowCore

extension Matcher.Kind {
  /// `gte`.
  public static let gte = Self(GteMatcher())
}

/// `gte: <number or string>`: greater than or equal to the operand.
struct GteMatcher: MatcherRule {
  let name = "gte"
  let operand = MatcherOperand.numberOrString
  let documentation = "is greater than or equal to it (\(OrderingComparison.documentationNote))"
  let examples: [MatcherExample] = [
    .holds(3, for: 3.0),
    .fails(4, for: 3, with: "expected value to be at least 4, found 3"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    OrderingComparison.failure("to be at least", expected: expected, actual: actual) { $0 >= 0 }
  }
}
