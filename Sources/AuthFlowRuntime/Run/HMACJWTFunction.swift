import AuthFlowCore
import AuthFlowExpression
import AuthFlowJOSE
import Foundation

/// `hs256_jwt(claims, secret)`: a JWT of these claims signed with HS256 keyed by the secret's
/// octets (RFC 7518 §3.2), as the OpenID conformance suite signs the forged `id_token_hint` of
/// `oidcc-rp-initiated-logout-bad-id-token-hint` with the client secret. The token is a secret.
struct HS256JWTFunction: ExpressionFunction {
  static let name = "hs256_jwt"
  static let arity = 2...2
  static let signature = "hs256_jwt(claims, secret)"
  static let summary =
    "A JWT of the claims (an object) signed with HS256 keyed with the secret (at least 32 bytes, RFC 7518 §3.2): a "
    + "token a provider must refuse where it expects its own signature."
  static let examples = [
    FunctionExample("len(split(hs256_jwt(json('{\"sub\": \"x\"}'), 'a-secret-of-at-least-thirty-two-bytes'), '.'))", 3),
    FunctionExample(
      "jwt(hs256_jwt(json('{\"sub\": \"x\"}'), 'a-secret-of-at-least-thirty-two-bytes')).header.alg", "HS256"),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let claims = arguments[0].revealed.objectValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "an object of claims", got: arguments[0])
    }
    guard let secret = arguments[1].revealed.stringValue else {
      throw .argumentType(function: Self.name, position: 2, expected: "a string", got: arguments[1])
    }
    guard secret.utf8.count >= 32 else {
      throw .functionFailed(Self.name, "needs a secret of at least 32 bytes for HS256 (RFC 7518 §3.2)")
    }
    do {
      let token = try SigningKey(hmacSecret: Data(secret.utf8), kid: nil).sign(claims: claims)
      return .secret(.string(token))
    } catch {
      throw .functionFailed(Self.name, "could not sign: \(error)")
    }
  }
}
