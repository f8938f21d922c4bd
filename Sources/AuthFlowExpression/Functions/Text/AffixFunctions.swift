import AuthFlowCore

/// `starts_with(text, prefix)`.
struct StartsWithFunction: ExpressionFunction {
  static let name = "starts_with"
  static let arity = 2...2
  static let signature = "starts_with(text, prefix)"
  static let summary = "Whether a string starts with a prefix."
  static let examples = [
    FunctionExample("starts_with('auth0|123', 'auth0|')", true),
    FunctionExample("starts_with('email|123', 'auth0|')", false),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    .bool(try Self.text(arguments, 0).hasPrefix(try Self.text(arguments, 1)))
  }
}

/// `ends_with(text, suffix)`.
struct EndsWithFunction: ExpressionFunction {
  static let name = "ends_with"
  static let arity = 2...2
  static let signature = "ends_with(text, suffix)"
  static let summary = "Whether a string ends with a suffix."
  static let examples = [
    FunctionExample("ends_with('alice@example.com', '@example.com')", true),
    FunctionExample("ends_with('alice@example.org', '.com')", false),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    .bool(try Self.text(arguments, 0).hasSuffix(try Self.text(arguments, 1)))
  }
}
