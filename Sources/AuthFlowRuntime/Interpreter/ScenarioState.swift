public import AuthFlowCore

/// The mutable state of one scenario instance, shared by its concurrently running steps.
actor ScenarioState {
  private(set) var variables: [String: Value] = [:]
  private(set) var stepResults: [String: Value] = [:]
  /// The scenario's virtual WebAuthn authenticators.
  let authenticators = VirtualAuthenticatorPool()

  func setVariable(_ name: String, _ value: Value) {
    variables[name] = value
  }

  func setResult(_ stepID: String, _ value: Value) {
    stepResults[stepID] = value
  }

  func snapshot() -> (variables: [String: Value], steps: [String: Value]) {
    (variables, stepResults)
  }
}
