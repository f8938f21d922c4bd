/// The process exit codes of DESIGN §1, which a pipeline can act on.
public enum AuthFlowExitCode: Int32, Sendable {
  /// Every scenario passed (or was skipped).
  case success = 0
  /// At least one scenario failed an assertion.
  case failure = 1
  /// Invalid input or usage: a scenario, profile or fixture did not validate; a bad flag.
  case invalidInput = 2
  /// The tenant could not be reached or misbehaved: environment, not assertion.
  case environment = 3
}
