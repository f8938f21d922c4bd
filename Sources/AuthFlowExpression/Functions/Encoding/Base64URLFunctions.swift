import AuthFlowCore

/// `base64url_encode(text)`.
struct Base64URLEncodeFunction: ExpressionFunction {
  static let name = "base64url_encode"
  static let arity = 1...1
  static let signature = "base64url_encode(text)"
  static let summary = "The UTF-8 bytes of a string in base64url without padding; secret when the text is."
  static let examples = [FunctionExample("base64url_encode('a?b>')", "YT9iPg")]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    Self.text(Base64URL.encode(Array(try Self.text(arguments, 0).utf8)), derivedFrom: arguments[0])
  }
}

/// `base64url_decode(text)`.
struct Base64URLDecodeFunction: ExpressionFunction {
  static let name = "base64url_decode"
  static let arity = 1...1
  static let signature = "base64url_decode(text)"
  static let summary =
    "Decodes base64url into UTF-8 text, leniently (padding, `+` and `/` accepted, unlike the strict decoding of "
    + "tokens); secret when the input is."
  static let examples = [FunctionExample("base64url_decode('YT9iPg')", "a?b>")]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let encoded = try Self.text(arguments, 0)
    guard let data = Base64URL.decodeLenient(encoded) else {
      throw .functionFailed(Self.name, "got text that is not base64url")
    }
    guard let text = String(validating: Array(data), as: UTF8.self) else {
      throw .functionFailed(Self.name, "decoded bytes that are not UTF-8 text")
    }
    return Self.text(text, derivedFrom: arguments[0])
  }
}
