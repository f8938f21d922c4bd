import AuthFlowCore

/// `lower(text)`.
struct LowerFunction: ExpressionFunction {
  static let name = "lower"
  static let arity = 1...1
  static let signature = "lower(text)"
  static let summary = "The string in lower case; secret when the argument is."
  static let examples = [
    FunctionExample("lower('Alice@Example.COM')", "alice@example.com"),
    FunctionExample("lower(secret('ABC'))", .secret("abc")),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    Self.text(try Self.text(arguments, 0).lowercased(), derivedFrom: arguments[0])
  }
}

/// `upper(text)`.
struct UpperFunction: ExpressionFunction {
  static let name = "upper"
  static let arity = 1...1
  static let signature = "upper(text)"
  static let summary = "The string in upper case; secret when the argument is."
  static let examples = [FunctionExample("upper('abc-1')", "ABC-1")]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    Self.text(try Self.text(arguments, 0).uppercased(), derivedFrom: arguments[0])
  }
}
