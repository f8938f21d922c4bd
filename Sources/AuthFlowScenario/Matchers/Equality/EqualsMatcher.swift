import AuthFlowCore

extension Matcher.Kind {
  /// `equals`, also written as a plain value.
  public static let equals = Self(EqualsMatcher())
}

/// `equals: <value>`: the value equals the operand, as `Value.matches` means it.
struct EqualsMatcher: MatcherRule {
  let name = "equals"
  let operand = MatcherOperand.any
  let documentedName = "*(plain value)*, `equals`"
  let documentation = "equals it (numbers by value, a JWT by its text, objects and lists deeply)"
  let examples: [MatcherExample] = [
    .holds(3, for: 3.0),
    .holds(["a": [1, 2]], for: ["a": [1, 2]]),
    .fails("alice", for: "bob", with: #"expected value to equal "alice", found "bob""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let actual, actual.matches(expected) else { return "to equal" }
    return nil
  }
}
