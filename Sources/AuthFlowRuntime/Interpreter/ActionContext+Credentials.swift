import AuthFlowCore

extension ActionContext {
  /// The scenario's device clock in Unix seconds: the system clock plus what `mock_clock`
  /// advanced in this scenario. Credentials' `expires_at` and the Credentials Manager use it.
  func now() async -> Double {
    await state.now()
  }

  /// Moves the scenario's device clock forward (with the mock's virtual clock).
  func advanceClock(by seconds: Double) async {
    await state.advanceClock(by: seconds)
  }

  /// The Credentials Manager's storage.
  func credentialsStore() async -> CredentialsStore {
    await state.credentials
  }

  /// Replaces the Credentials Manager's storage; its secrets are registered for scrubbing.
  func setCredentialsStore(_ store: CredentialsStore) async {
    secrets.register(secretsIn: store.value)
    await state.setCredentials(store)
  }
}
