import AuthFlowCore

/// `json(text)`: parses JSON.
struct JSONFunction: ExpressionFunction {
  static let name = "json"
  static let arity = 1...1
  static let signature = "json(text)"
  static let summary = "Parses JSON text into a value; secret when the text is."
  static let examples = [
    FunctionExample(#"json('{"a": [1, 2.5, true, null]}').a[1]"#, 2.5),
    FunctionExample("json('\"x\"')", "x"),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let text = try Self.text(arguments, 0)
    guard let value = try? Value(jsonText: text) else {
      throw .functionFailed(Self.name, "got text that is not valid JSON")
    }
    return arguments[0].isSecret ? value.asSecret : value
  }
}

/// `to_json(value)`: serializes as compact JSON.
struct ToJSONFunction: ExpressionFunction {
  static let name = "to_json"
  static let arity = 1...1
  static let signature = "to_json(value)"
  static let summary = "The value as compact JSON with sorted keys; secret when it holds a secret."
  static let examples = [
    FunctionExample("to_json(json('{\"b\": 1, \"a\": [true]}'))", #"{"a":[true],"b":1}"#),
    FunctionExample("to_json('x')", #""x""#),
    FunctionExample("to_json([secret('p')])", .secret(#"["p"]"#)),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    Self.text(arguments[0].jsonText(revealSecrets: true), derivedFrom: arguments[0])
  }
}
