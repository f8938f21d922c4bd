import AuthFlowCore

extension Matcher.Kind {
  /// `within`.
  public static let within = Self(WithinMatcher())
}

/// `within: { of: <number>, seconds: <duration> }`: a number at most `seconds` away from `of`
/// (timestamps: `iat` within a minute of `now()`).
struct WithinMatcher: MatcherRule {
  let name = "within"
  let operand = MatcherOperand.tolerance
  let documentation = "is a number within `seconds` of `of`"
  /// The message names the tolerance and the reference, not the operand's mapping.
  let showsOperand = false
  let examples: [MatcherExample] = [
    .holds(["of": 100, "seconds": 5], for: 104),
    .holds(["of": 100, "seconds": "1m"], for: 40),
    .fails(["of": 100, "seconds": 5], for: 110, with: "expected value to be within 5s of 100, found 110"),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let reference = expected.member("of"), let center = reference.doubleValue,
      let tolerance = expected.member("seconds").flatMap({
        DurationText.parse($0, maximum: InputLimits.widestTolerance)
      })?.seconds
    else {
      return MatcherFailure("to be within", note: "within needs { of: number, seconds: a duration up to 366 days }")
    }
    guard let number = actual?.doubleValue, abs(number - center) <= tolerance else {
      return MatcherFailure("to be within \(Self.format(tolerance))s of \(reference.jsonText())")
    }
    return nil
  }

  private static func format(_ number: Double) -> String {
    number.rounded() == number ? String(Int(number)) : String(number)
  }
}
