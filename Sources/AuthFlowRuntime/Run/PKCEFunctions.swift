import AuthFlowCore
import AuthFlowExpression
import AuthFlowJOSE

/// `pkce_challenge(verifier)`: the RFC 7636 S256 challenge of a verifier, for a scenario that sends
/// its own challenge (`web_auth: { parameters: { code_challenge: … } }`) or checks one.
///
/// The challenge is not secret: it is a one-way hash the authorization request carries in the
/// clear (RFC 7636 §4.2); the verifier stays secret.
struct PKCEChallengeFunction: ExpressionFunction {
  static let name = "pkce_challenge"
  static let arity = 1...2
  static let signature = "pkce_challenge(verifier, method)"
  static let summary =
    "The PKCE code_challenge of a verifier (RFC 7636 §4.2): base64url(SHA-256(verifier)), or the verifier itself "
    + "with method 'plain'."
  static let examples = [
    // RFC 7636 Appendix B's construction, with a verifier of the same form.
    FunctionExample(
      "pkce_challenge('dBjftJeZ4CVP-mJ92K9nSHt6BmS4HkLRfTLAsnW9GNM')", "GVNaaO7DAsudJYEMRY-fz3MwZHD1iLlK3hHBf3lrjVg"),
    FunctionExample("pkce_challenge('abc', 'plain')", "abc"),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    guard let verifier = arguments[0].stringValue else {
      throw .argumentType(function: Self.name, position: 1, expected: "a string", got: arguments[0])
    }
    var method = PKCE.Method.s256
    if arguments.count > 1 {
      guard let text = arguments[1].stringValue, let chosen = PKCE.Method(rawValue: text) else {
        throw .functionFailed(Self.name, "takes the method 'S256' or 'plain'")
      }
      method = chosen
    }
    let challenge = PKCE.challenge(for: verifier, method: method)
    // `plain` sends the verifier itself: it stays as secret as it was.
    return method == .plain && arguments[0].containsSecret ? .secret(.string(challenge)) : .string(challenge)
  }
}

/// `pkce_verifier()`: a new PKCE code verifier (RFC 7636 §4.1), a secret.
struct PKCEVerifierFunction: ExpressionFunction {
  static let name = "pkce_verifier"
  static let arity = 0...0
  static let signature = "pkce_verifier()"
  static let summary =
    "A new secret PKCE code_verifier: 32 random bytes in base64url (43 characters), as Auth0.swift makes it."
  static let examples = [
    FunctionExample("len(pkce_verifier())", 43),
    FunctionExample("pkce_verifier() != pkce_verifier()", true),
  ]

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    .secret(.string(PKCE.generateVerifier()))
  }
}
