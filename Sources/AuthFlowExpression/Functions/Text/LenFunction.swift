import AuthFlowCore

/// `len(x)`: the length of a string, array or object.
struct LenFunction: ExpressionFunction {
  static let name = "len"
  static let arity = 1...1
  static let signature = "len(value)"
  static let summary = "The number of characters of a string, items of an array or keys of an object (a plain int)."
  static let examples = [
    FunctionExample("len('héllo')", 5),
    FunctionExample("len([1, 2, 3])", 3),
    FunctionExample("len(json('{\"a\": 1}'))", 1),
    FunctionExample("len(secret('abcd'))", 4),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    switch arguments[0].unwrapped {
    case .string(let text): return .int(text.count)
    case .jwt(let token): return .int(token.raw.count)
    case .array(let items): return .int(items.count)
    case .object(let members): return .int(members.count)
    default:
      throw .argumentType(function: Self.name, position: 1, expected: "a string, array or object", got: arguments[0])
    }
  }
}
