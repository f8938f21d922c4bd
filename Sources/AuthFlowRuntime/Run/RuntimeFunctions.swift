public import AuthFlowExpression

/// Expression functions that need the runtime's modules (JOSE for `totp` and the PKCE functions).
public enum RuntimeFunctions {
  public static let registry: FunctionRegistry = FunctionRegistry.standard.adding([
    ClaimsProblemFunction(), HS256JWTFunction(), PKCEChallengeFunction(), PKCEVerifierFunction(), TOTPFunction(),
  ])
}
