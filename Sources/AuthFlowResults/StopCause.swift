import Synchronization

/// Why a run was stopped before every scenario finished: what the reports say of an interrupted
/// run (`run.stop_cause` in the JSON report), what the reasons of its interrupted scenarios name,
/// and what the CLI's exit code follows (130, 143, 129, 141, 124).
public enum StopCause: Sendable, Hashable, CustomStringConvertible {
  /// A signal, by its name (`SIGINT`, `SIGTERM`, `SIGHUP`).
  case signal(String)
  /// Standard output was closed (`authflow run | head -1`).
  case closedOutput
  /// The run's `--run-timeout`, as the user wrote it (`20m`), passed.
  case runTimeout(String)

  /// `signal`, `closed_output` or `run_timeout`: the JSON report's `stop_cause.kind`.
  public var kind: String {
    switch self {
    case .signal: "signal"
    case .closedOutput: "closed_output"
    case .runTimeout: "run_timeout"
    }
  }

  /// `SIGINT`, `closed standard output`, `--run-timeout 20m passed`.
  public var description: String {
    switch self {
    case .signal(let name): name
    case .closedOutput: "closed standard output"
    case .runTimeout(let limit): "--run-timeout \(limit) passed"
    }
  }

  /// How the reasons of interrupted scenarios and steps begin: `the run was interrupted by SIGINT`,
  /// `the run's --run-timeout of 20m passed`, `the run was stopped: its standard output was
  /// closed`.
  public var stoppedText: String {
    switch self {
    case .signal(let name): "the run was interrupted by \(name)"
    case .closedOutput: "the run was stopped: its standard output was closed"
    case .runTimeout(let limit): "the run's --run-timeout of \(limit) passed"
    }
  }
}

/// The first ``StopCause`` of a run, shared by whoever stops it (the CLI's signal handling, its
/// `--run-timeout`) and whoever reports it (the runner's reasons, the reports): recorded before the
/// run is cancelled, so every interrupted scenario can say why.
public final class StopRecord: Sendable {
  private let state = Mutex<StopCause?>(nil)

  public init() {}

  /// Records `cause`; true when it is the first (later ones are not recorded).
  @discardableResult
  public func record(_ cause: StopCause) -> Bool {
    state.withLock { first in
      guard first == nil else { return false }
      first = cause
      return true
    }
  }

  /// The first cause recorded, if any.
  public var cause: StopCause? { state.withLock { $0 } }
}

/// The reasons of what a stop left unfinished, naming the cause when it is known.
public enum StopMessages {
  /// A step stopped while it ran, or never started because of the stop.
  public static func step(_ cause: StopCause?) -> String { cause?.stoppedText ?? "the run was interrupted" }

  /// A scenario the stop cut short.
  public static func whileRunning(_ cause: StopCause?) -> String { "\(step(cause)) while this scenario was running" }

  /// A scenario the run never started.
  public static func beforeStart(_ cause: StopCause?) -> String { "\(step(cause)) before this scenario started" }
}
