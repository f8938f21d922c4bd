import AuthFlowCore

extension ExpressionFunction {
  /// Argument `index` (0-based) as text: a string, or a JWT's compact text.
  static func text(_ arguments: [Value], _ index: Int) throws(ExpressionError) -> String {
    let value = arguments[index]
    guard let text = value.stringValue else {
      throw .argumentType(function: name, position: index + 1, expected: "a string", got: value)
    }
    return text
  }

  /// A string result, secret when any of `sources` is secret.
  static func text(_ result: String, derivedFrom sources: Value...) -> Value {
    sources.contains(where: \.containsSecret) ? .secret(.string(result)) : .string(result)
  }
}
