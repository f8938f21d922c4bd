import AuthFlowCore

extension Matcher.Kind {
  /// `type`.
  public static let type = Self(TypeMatcher())
}

extension Matcher {
  /// The names the `type` matcher accepts, as `Value.typeName` spells them; `secret` holds for a
  /// value the runtime masks (a secret or a JWT), whatever is inside it.
  public static let typeNames = ["array", "bool", "int", "jwt", "null", "number", "object", "secret", "string"]
}

/// `type: <name>`: the value has that type.
struct TypeMatcher: MatcherRule {
  let name = "type"
  let operand = MatcherOperand.typeName
  let documentation =
    "has that type: `string`, `int`, `number`, `bool`, `array`, `object`, `null`, `jwt`, or `secret` (a value "
    + "authflow masks: a secret or a JWT, whatever is inside — `type: string` also holds for a secret string)"
  let examples: [MatcherExample] = [
    .holds("string", for: "x"),
    .holds("number", for: 3),
    .fails("int", for: "3", with: #"expected value to have type "int", found "3""#),
  ]

  func failure(expected: Value, actual: Value?) -> MatcherFailure? {
    // A name computed by an expression is held to the same list the parser checks literals against.
    guard let name = expected.stringValue, Matcher.typeNames.contains(name) else {
      return MatcherFailure(
        "to have type", note: "not a type name; the types are \(Matcher.typeNames.joined(separator: ", "))")
    }
    guard let actual, Self.has(actual, type: name) else { return "to have type" }
    return nil
  }

  private static func has(_ actual: Value, type name: String) -> Bool {
    switch (name, actual.unwrapped) {
    case ("number", .int), ("number", .double), ("int", .int): return true
    case ("string", .string), ("bool", .bool), ("array", .array): return true
    case ("object", .object), ("null", .null), ("jwt", .jwt): return true
    case ("secret", _): return actual.isSecret
    default: return false
    }
  }
}
