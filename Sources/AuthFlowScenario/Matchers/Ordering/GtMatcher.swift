import AuthFlowCore

extension Matcher.Kind {
  /// `gt`.
  public static let gt = Self(GtMatcher())
}

/// `gt: <number or string>`: greater than the operand.
struct GtMatcher: MatcherRule {
  let name = "gt"
  let operand = MatcherOperand.numberOrString
  let documentation =
    "is greater than it: two numbers by value, or two strings by their characters in order "
    + "(`updated_at: { gt: \"2024-01-01T00:00:00Z\" }`); a number against a string fails"
  let examples: [MatcherExample] = [
    .holds(2, for: 3),
    .holds("2024-01-01T00:00:00Z", for: "2025-06-30T12:00:00Z"),
    .fails(10, for: 3, with: "expected value to be greater than 10, found 3"),
    .fails(
      1, for: "2",
      with: #"expected value to be greater than 1 (only two numbers or two strings can be compared), found "2""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    OrderingComparison.failure("to be greater than", expected: expected, actual: actual) { $0 > 0 }
  }
}
