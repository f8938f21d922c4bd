import AuthFlowCore
import Foundation

/// The mutable state of one scenario instance, shared by its concurrently running steps.
actor ScenarioState {
  private(set) var variables: [String: Value] = [:]
  private(set) var stepResults: [String: Value] = [:]
  /// The scenario's virtual WebAuthn authenticators.
  let authenticators = VirtualAuthenticatorPool()
  /// The Credentials Manager's storage (`credentials` in expressions).
  private(set) var credentials = CredentialsStore()
  /// Seconds the scenario's device clock is ahead of the system clock (`mock_clock` moves it
  /// along with the mock's virtual clock).
  private(set) var clockOffset: Double = 0
  /// The inbox's newest message id noted as each marked step started (``InboxMark``).
  private(set) var inboxMarks: [String: InboxMark] = [:]

  func setInboxMark(_ stepID: String, _ mark: InboxMark) {
    inboxMarks[stepID] = mark
  }

  func setVariable(_ name: String, _ value: Value) {
    variables[name] = value
  }

  func setResult(_ stepID: String, _ value: Value) {
    stepResults[stepID] = value
  }

  func setCredentials(_ store: CredentialsStore) {
    credentials = store
  }

  func advanceClock(by seconds: Double) {
    clockOffset += seconds
  }

  /// The scenario's current time in Unix seconds.
  func now() -> Double {
    Date().timeIntervalSince1970 + clockOffset
  }

  func snapshot() -> (variables: [String: Value], steps: [String: Value], credentials: Value, clockOffset: Double) {
    (variables, stepResults, credentials.value, clockOffset)
  }
}
