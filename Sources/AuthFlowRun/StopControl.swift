public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowResults
public import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StopCause {
  /// The cause of signal `number`: `SIGINT`, `SIGTERM` or `SIGHUP`.
  public static func signal(number: Int32) -> StopCause {
    switch number {
    case SIGHUP: .signal("SIGHUP")
    case SIGTERM: .signal("SIGTERM")
    default: .signal("SIGINT")
    }
  }

  /// The exit code that says so (README, docs/running.md).
  public var exitCode: AuthFlowExitCode {
    switch self {
    case .signal("SIGHUP"): .hangup
    case .signal("SIGTERM"): .terminate
    case .signal: .interrupt
    case .closedOutput: .closedOutput
    case .runTimeout: .runTimeout
    }
  }
}

/// How a run is stopped: the first stop (a signal, a closed standard output, `--run-timeout`, or
/// ``stop(_:)`` called by the embedding program) cancels the run, so running scenarios are cut
/// short (and reported interrupted), their cleanup runs, and every report is written.
///
/// ``installingSignals(early:)`` makes it listen to SIGINT, SIGTERM and SIGHUP — and a closed
/// standard output — as `authflow run` does: a second signal then kills every process the run
/// launched (chromium), runs the ``onSecondStop(_:)`` work (write the reports of what has
/// finished, within ``emergencyWriteLimit``) and exits at once with that signal's code. The
/// signals are received with `DispatchSource` on an ordinary queue (their default action set to
/// ignore), so no code runs in an asynchronous signal handler. A control made with ``init()``
/// listens to nothing: a long-running service (or a test) stops its runs with ``stop(_:)``.
public final class StopControl: Sendable {
  /// The longest a second signal waits for the reports to be written before exiting anyway (the
  /// files from the last periodic write are on disk already).
  public static let emergencyWriteLimit: DispatchTimeInterval = .seconds(3)
  /// The signals ``installingSignals(early:)`` listens to.
  public static let signals = [SIGINT, SIGTERM, SIGHUP]

  private struct State {
    var cancel: (@Sendable () -> Void)?
    var emergency: (@Sendable () async -> Void)?
    var sources: [any DispatchSourceSignal] = []
    var listens = false
  }

  /// The first stop, shared with the run (``record``) so its reports say why it stopped.
  public let record = StopRecord()
  private let state = Mutex(State())

  /// A control no signal reaches: only ``stop(_:)`` and ``deadline(after:written:)`` stop the run.
  public init() {}

  /// A control that listens to the signals from now on; `early` is a signal that arrived before
  /// (while the command line was parsed), which stops the run at once.
  public static func installingSignals(early: Int32? = nil) -> StopControl {
    let stops = StopControl()
    stops.state.withLock { $0.listens = true }
    let queue = DispatchQueue(label: "authflow.signals")
    stops.state.withLock { state in
      state.sources = signals.map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { stops.received(.signal(number: number)) }
        source.resume()
        return source
      }
    }
    StandardStreams.onClosedOutput { stops.received(.closedOutput) }
    if StandardStreams.isOutputClosed { stops.received(.closedOutput) }
    if let early { stops.received(.signal(number: early)) }
    return stops
  }

  /// Stops the run when `limit` has passed (`--run-timeout`), as a first signal does: running
  /// scenarios are cut short, their cleanup runs, every report is written, and the exit code is
  /// 124. `written` is the limit as the user wrote it, for the message. Cancel the returned task
  /// when the run is over.
  public func deadline(after limit: Duration, written: String) -> Task<Void, Never> {
    Task.detached { [self] in
      do {
        try await Task.sleep(for: limit)
      } catch {
        return
      }
      received(.runTimeout(written))
    }
  }

  /// What the first stop cancels (nil: nothing); when a stop came already, it is cancelled now.
  public func onStop(_ cancel: (@Sendable () -> Void)?) {
    state.withLock { $0.cancel = cancel }
    if record.cause != nil { cancel?() }
  }

  /// What a second signal does before exiting.
  public func onSecondStop(_ emergency: @escaping @Sendable () async -> Void) {
    state.withLock { $0.emergency = emergency }
  }

  /// The first stop's cause, if any.
  public var cause: StopCause? { record.cause }

  /// Stops the run as a first signal does (a second stop does nothing more).
  public func stop(_ cause: StopCause) { received(cause) }

  /// Stops listening; the signals' default actions are back.
  public func uninstall() {
    guard state.withLock({ $0.listens }) else { return }
    StandardStreams.onClosedOutput(nil)
    state.withLock { state in
      state.sources.forEach { $0.cancel() }
      state.sources = []
      state.listens = false
    }
    for number in Self.signals { signal(number, SIG_DFL) }
  }

  private func received(_ cause: StopCause) {
    let (cancel, emergency) = state.withLock { ($0.cancel, $0.emergency) }
    if record.record(cause) {
      switch cause {
      case .signal, .runTimeout: StandardStreams.error(InterruptionMessages.first(cause))
      case .closedOutput: break
      }
      cancel?()
      return
    }
    guard case .signal = cause, state.withLock({ $0.listens }) else { return }
    // The run exits without stopping its progress line: erase it for good before the message.
    StandardStreams.endStatus()
    StandardStreams.error(InterruptionMessages.again(cause))
    // Every browser the run launched is killed here, on the signal queue's own thread: the task
    // pool the reports' work needs may be too busy to get to it before the exit.
    LaunchedProcesses.killAll()
    if let emergency { Self.run(emergency, within: Self.emergencyWriteLimit) }
    // `_exit`, not `exit`: the reports are on disk and every output goes through write(2), and
    // running atexit handlers and destructors while the run's tasks still hold HTTP streams
    // trapped (NIOAsyncWriter deinitialised without finish; found by fuzz/run).
    _exit(cause.exitCode.rawValue)
  }

  /// Runs `work` and waits for it at most `limit`, blocking the signal queue's thread (not one of
  /// the task pool's, which the work needs).
  private static func run(_ work: @escaping @Sendable () async -> Void, within limit: DispatchTimeInterval) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await work()
      done.signal()
    }
    _ = done.wait(timeout: .now() + limit)
  }
}

/// ``StopControl`` listening to signals around one piece of work (`authflow mock`).
public enum Interruption {
  /// Runs `body` in a task that the first stop cancels; returns its result and what stopped it.
  public static func cancellable<Result: Sendable>(
    early: Int32? = nil, _ body: @escaping @Sendable () async -> Result
  ) async -> (Result, StopCause?) {
    let stops = StopControl.installingSignals(early: early)
    let task = Task { await body() }
    stops.onStop { task.cancel() }
    let result = await task.value
    stops.uninstall()
    return (result, stops.cause)
  }
}

/// What a run says when it is stopped.
enum InterruptionMessages {
  static func first(_ cause: StopCause) -> String {
    let now = if case .signal = cause { "again" } else { "a signal" }
    return "\nauthflow: \(cause): stopping; running cleanup and writing reports (\(now) to exit now)\n"
  }

  static func again(_ cause: StopCause) -> String {
    "\nauthflow: \(cause) again: writing the reports of what finished and exiting now\n"
  }
}
