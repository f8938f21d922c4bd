import AuthFlowCore

/// `default(value, fallback)`.
struct DefaultFunction: ExpressionFunction {
  static let name = "default"
  static let arity = 2...2
  static let signature = "default(value, fallback)"
  static let summary = "The value, or the fallback when it is null (a missing key); use || for any falsy value."
  static let examples = [
    FunctionExample("default(null, 'guest')", "guest"),
    FunctionExample("default('', 'guest')", ""),
    FunctionExample("default(json('{}').missing, 0)", 0),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    arguments[0].isNull ? arguments[1] : arguments[0]
  }
}

/// `secret(value)`.
struct SecretFunction: ExpressionFunction {
  static let name = "secret"
  static let arity = 1...1
  static let signature = "secret(value)"
  static let summary = "The value marked secret, so it is redacted in every output."
  static let examples = [
    FunctionExample("secret('hunter2')", .secret("hunter2")),
    FunctionExample("secret('a') == 'a'", true),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    arguments[0].asSecret
  }
}

/// `string(value)`.
struct StringFunction: ExpressionFunction {
  static let name = "string"
  static let arity = 1...1
  static let signature = "string(value)"
  static let summary = "The value as interpolation renders it: numbers as written, null as '', objects as JSON."
  static let examples = [
    FunctionExample("string(42)", "42"),
    FunctionExample("string(1.5)", "1.5"),
    FunctionExample("string(null)", ""),
    FunctionExample("string([1, 'a'])", #"[1,"a"]"#),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    arguments[0].interpolated
  }
}

/// `int(value)`.
struct IntFunction: ExpressionFunction {
  static let name = "int"
  static let arity = 1...1
  static let signature = "int(value)"
  static let summary = "An int from a number (truncated toward zero), a numeric string or a bool."
  static let examples = [
    FunctionExample("int('3600')", 3600),
    FunctionExample("int(2.9)", 2),
    FunctionExample("int(true)", 1),
    FunctionExample("int(secret('123456'))", .secret(123_456)),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let argument = arguments[0]
    let result: Int
    switch argument.unwrapped {
    case .int(let number):
      result = number
    case .double(let number):
      guard number.isFinite, abs(number) < 9e18 else { throw .functionFailed(Self.name, "got a number out of range") }
      result = Int(number)
    case .bool(let flag):
      result = flag ? 1 : 0
    case .string(let text):
      let trimmed = text.trimmingWhitespace()
      if let number = Int(trimmed) {
        result = number
      } else if let number = Double(trimmed), number.isFinite, abs(number) < 9e18 {
        result = Int(number)
      } else {
        throw .functionFailed(Self.name, "got a string that is not a number")
      }
    default:
      throw .argumentType(function: Self.name, position: 1, expected: "a number, string or bool", got: argument)
    }
    return argument.isSecret ? .secret(.int(result)) : .int(result)
  }
}
