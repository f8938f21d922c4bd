import AuthFlowCore
import AuthFlowExpression
import AuthFlowJOSE
import Foundation

/// `totp(secret)`: the current RFC 6238 code (6 digits, 30 s, SHA-1) of a base32 secret, at the
/// expression clock's time. The code is a secret, like the secret it comes from.
struct TOTPFunction: ExpressionFunction {
  static let name = "totp"
  static let arity = 1...1
  static let signature = "totp(secret)"
  static let summary = "The current 6-digit TOTP code (RFC 6238, 30 s, SHA-1) of a base32 secret; a secret."
  static let examples = [
    // RFC 6238's SHA-1 key "12345678901234567890" in base32, at the examples' clock (1700000000).
    FunctionExample("totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')", .secret(.string("921300")))
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let secret = arguments[0].stringValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "a base32 string", got: arguments[0])
    }
    guard let totp = TOTP(base32Secret: secret) else {
      throw .functionFailed(Self.name, "needs a base32 secret (letters A–Z and digits 2–7)")
    }
    return .secret(.string(totp.code(at: Date(timeIntervalSince1970: context.now()))))
  }
}
