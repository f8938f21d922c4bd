import AuthFlowCore

/// `jwt(text)`: decodes a compact JWS so its header and claims can be read.
struct JWTFunction: ExpressionFunction {
  static let name = "jwt"
  static let arity = 1...1
  static let signature = "jwt(token)"
  static let summary =
    "Decodes a compact JWS (not verified) into a JWT whose .header, .claims and .raw can be read."
  static let examples = [
    FunctionExample("jwt('\(sample)').claims.sub", "auth0|123"),
    FunctionExample("jwt('\(sample)').header.alg", "RS256"),
  ]

  /// `{"alg":"RS256"}.{"sub":"auth0|123"}.sig`
  static let sample = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhdXRoMHwxMjMifQ.c2ln"

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    if case .jwt = arguments[0].unwrapped { return arguments[0].unwrapped }
    guard let token = JWTValue(raw: try Self.text(arguments, 0)) else {
      throw .functionFailed(
        Self.name, "needs a compact JWS: three base64url parts, header.payload.signature, with JSON header and payload")
    }
    return .jwt(token)
  }
}
