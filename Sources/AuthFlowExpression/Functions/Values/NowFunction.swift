import AuthFlowCore

/// `now()`: the current Unix time in whole seconds, from the context's clock.
struct NowFunction: ExpressionFunction {
  static let name = "now"
  static let arity = 0...0
  static let signature = "now()"
  static let summary = "The current Unix time in whole seconds (an int); add a duration: now() + 5m."
  static let examples = [
    FunctionExample("now()", 1_700_000_000),
    FunctionExample("now() + 5m", 1_700_000_300),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    .int(Int(context.now().rounded(.down)))
  }
}
