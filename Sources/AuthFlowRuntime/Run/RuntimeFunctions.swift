public import AuthFlowExpression

/// Expression functions that need the runtime's modules (JOSE for `totp`).
public enum RuntimeFunctions {
  public static let registry: FunctionRegistry = FunctionRegistry.standard.adding([TOTPFunction()])
}
