import AuthFlowCore

extension Matcher.Kind {
  /// `exists`.
  public static let exists = Self(ExistsMatcher())
}

/// `exists: true | false`: the value is present and not null, or (false) absent or null.
struct ExistsMatcher: MatcherRule {
  let name = "exists"
  let operand = MatcherOperand.bool
  let documentation = "is present and not null (`exists: false`: absent or null)"
  let showsOperand = false
  let examples: [MatcherExample] = [
    .holds(true, for: "x"),
    .holds(false, for: nil),
    .fails(true, for: nil, with: "expected value to exist, found null"),
    .fails(false, for: 0, with: "expected value not to exist, found 0"),
  ]

  func expectedText(_ operand: Value, show: (Value) -> String) -> String {
    operand.isTruthy ? "present" : "absent"
  }

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    let wanted = expected.isTruthy
    let present = actual.map { !$0.isNull } ?? false
    if wanted == present { return nil }
    return wanted ? "to exist" : "not to exist"
  }
}
