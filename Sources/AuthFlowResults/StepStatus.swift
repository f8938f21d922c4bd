/// How a step or a scenario ended.
public enum Status: String, Sendable, Hashable, Codable {
  case passed
  /// An expectation did not hold, or the action failed in a way the scenario did not expect.
  case failed
  /// Not run: its `if` was false, a step it needs failed, or the scenario was skipped before it
  /// started (a capability the tenant lacks, another tenant, a client or chromium missing; then
  /// every planned step is `skipped` with the scenario's reason). The reason says which.
  case skipped
  /// The tenant could not be reached or misbehaved (refused connection, timeout, 5xx, a body that
  /// is not what the protocol says): an environment failure, not an assertion failure.
  case error
  /// The run was stopped (a signal, a closed standard output) while this step or scenario was
  /// running or before it started: it never held, whatever its cleanup did. The reason says which.
  case interrupted
}

extension Status {
  /// The order summaries and the JSON report's counts list statuses in.
  public static let reportOrder: [Status] = [.passed, .failed, .error, .interrupted, .skipped]
}
