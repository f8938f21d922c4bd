import AuthFlowCore

extension Matcher.Kind {
  /// `contains`.
  public static let contains = Self(ContainsMatcher())
}

/// `contains: <value>`: a string containing it, a list with an equal element, an object with
/// that key (a JWT by its text).
struct ContainsMatcher: MatcherRule {
  let name = "contains"
  let operand = MatcherOperand.any
  let documentation = "is a string containing it, a list with an equal element, or an object with that key"
  let examples: [MatcherExample] = [
    .holds("profile", for: "openid profile"),
    .holds("admin", for: ["admin", "user"]),
    .holds("sub", for: ["sub": "auth0|1"]),
    .fails(
      "offline_access", for: "openid profile",
      with: #"expected value to contain "offline_access", found "openid profile""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    guard let actual, Self.contains(actual, expected) else { return "to contain" }
    return nil
  }

  /// Whether `actual` contains `expected`, as `contains` and `not_contains` mean it.
  static func contains(_ actual: Value, _ expected: Value) -> Bool {
    switch actual.unwrapped {
    case .string(let text): return expected.stringValue.map { text.contains($0) } ?? false
    case .array(let items): return items.contains { $0.matches(expected) }
    case .object(let members): return expected.stringValue.map { members[$0] != nil } ?? false
    case .jwt(let token): return expected.stringValue.map { token.raw.contains($0) } ?? false
    default: return false
    }
  }
}
