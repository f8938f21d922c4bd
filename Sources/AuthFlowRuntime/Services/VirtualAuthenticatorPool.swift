import AuthFlowJOSE

/// The scenario's virtual WebAuthn authenticators, by name (like browsers): a passkey created by
/// one step is available to later steps naming the same authenticator, never to other scenarios.
actor VirtualAuthenticatorPool {
  private var authenticators: [String: VirtualAuthenticator] = [:]

  /// Runs `body` on the named authenticator (created on first use) and keeps its new state.
  func with<Result: Sendable, Failure: Error>(
    _ name: String, _ body: (inout VirtualAuthenticator) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var authenticator = authenticators[name] ?? VirtualAuthenticator()
    defer { authenticators[name] = authenticator }
    return try body(&authenticator)
  }
}
