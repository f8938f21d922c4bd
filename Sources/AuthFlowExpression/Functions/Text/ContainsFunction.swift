import AuthFlowCore

/// `contains(haystack, needle)`: substring, array element or object key.
struct ContainsFunction: ExpressionFunction {
  static let name = "contains"
  static let arity = 2...2
  static let signature = "contains(haystack, needle)"
  static let summary =
    "Whether a string contains a substring, an array an element (compared as ==), or an object a key."
  static let examples = [
    FunctionExample("contains('openid profile email', 'profile')", true),
    FunctionExample("contains(['a', 'b'], 'c')", false),
    FunctionExample("contains([1, 2], 2.0)", true),
    FunctionExample("contains(json('{\"sub\": 1}'), 'sub')", true),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let needle = arguments[1]
    switch arguments[0].unwrapped {
    case .string, .jwt:
      return .bool(try Self.text(arguments, 0).contains(try Self.text(arguments, 1)))
    case .array(let items):
      return .bool(items.contains { Operators.equal($0, needle) })
    case .object(let members):
      return .bool(members[try Self.text(arguments, 1)] != nil)
    default:
      throw .argumentType(function: Self.name, position: 1, expected: "a string, array or object", got: arguments[0])
    }
  }
}
