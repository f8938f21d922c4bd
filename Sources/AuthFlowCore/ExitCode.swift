/// The process exit codes of docs/design.md §1, which a pipeline can act on (README, docs/running.md).
public enum AuthFlowExitCode: Int32, Sendable, CaseIterable {
  /// Every selected scenario ran and held (or was skipped for a reason the report gives).
  case success = 0
  /// At least one scenario failed an assertion, or was interrupted without a signal's code.
  case failure = 1
  /// Invalid input or usage: a scenario, profile or fixture did not validate; a bad flag; a report
  /// path that cannot be written, or two reporters writing the same file.
  case invalidInput = 2
  /// The tenant could not be reached or misbehaved: environment, not assertion. Also a report that
  /// could not be written at the end of an otherwise green run.
  case environment = 3
  /// The run's `--run-timeout` passed before it finished: the running scenarios were stopped (their
  /// cleanup ran) and the reports written. 124, as GNU `timeout(1)` exits when its command timed out.
  case runTimeout = 124
  /// SIGHUP stopped the run (128 + 1); the reports of what finished were written.
  case hangup = 129
  /// SIGINT (Ctrl-C) stopped the run (128 + 2); the reports of what finished were written.
  case interrupt = 130
  /// Standard output was closed (`authflow run | head -1`): the run stopped quietly, reports
  /// written. 128 + SIGPIPE, as a shell reports a process SIGPIPE ended.
  case closedOutput = 141
  /// SIGTERM stopped the run (128 + 15); the reports of what finished were written.
  case terminate = 143
}
