import AuthFlowCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a run stopped before it finished, and the exit code that says so (README, docs/running.md).
enum StopCause: Sendable, Equatable {
  case signal(Int32)
  /// Standard output was closed (`authflow run | head -1`).
  case closedOutput

  var exitCode: AuthFlowExitCode {
    switch self {
    case .signal(SIGHUP): .hangup
    case .signal(SIGTERM): .terminate
    case .signal: .interrupt
    case .closedOutput: .closedOutput
    }
  }

  var name: String {
    switch self {
    case .signal(SIGHUP): "SIGHUP"
    case .signal(SIGTERM): "SIGTERM"
    case .signal: "SIGINT"
    case .closedOutput: "closed standard output"
    }
  }
}

/// Turns SIGINT, SIGTERM and SIGHUP — and a closed standard output — into task cancellation, so a
/// run stops cleanly: running scenarios are cut short (and reported interrupted), their cleanup
/// runs, and every report is written. A second signal writes the reports of what has finished
/// (within ``emergencyWriteLimit``) and exits at once with that signal's code.
///
/// The signals are received with `DispatchSource` on an ordinary queue (their default action set
/// to ignore), so no code runs in an asynchronous signal handler.
enum Interruption {
  /// The longest a second signal waits for the reports to be written before exiting anyway (the
  /// files from the last periodic write are on disk already).
  static let emergencyWriteLimit: DispatchTimeInterval = .seconds(3)
  static let signals = [SIGINT, SIGTERM, SIGHUP]

  /// Runs `body` in a task that the first stop cancels; returns its result and what stopped it.
  /// `emergency` is what a second signal does before exiting (write the reports).
  static func cancellable<Result: Sendable>(
    emergency: @escaping @Sendable () async -> Void = {}, _ body: @escaping @Sendable () async -> Result
  ) async -> (Result, StopCause?) {
    let task = Task { await body() }
    let latch = StopLatch()
    let queue = DispatchQueue(label: "authflow.signals")
    let sources = signals.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        let cause = StopCause.signal(number)
        guard latch.record(cause) else {
          StandardStreams.error(InterruptionMessages.again(cause))
          writeWithin(emergencyWriteLimit, emergency)
          exit(cause.exitCode.rawValue)
        }
        StandardStreams.error(InterruptionMessages.first(cause))
        task.cancel()
      }
      source.resume()
      return source
    }
    let onClosed: @Sendable () -> Void = {
      if latch.record(.closedOutput) { task.cancel() }
    }
    StandardStreams.onClosedOutput(onClosed)
    if StandardStreams.isOutputClosed { onClosed() }
    let result = await task.value
    StandardStreams.onClosedOutput(nil)
    sources.forEach { $0.cancel() }
    for number in signals { signal(number, SIG_DFL) }
    return (result, latch.cause)
  }

  /// Runs `work` and waits for it at most `limit`, blocking the signal queue's thread (not one of
  /// the task pool's, which the work needs).
  private static func writeWithin(_ limit: DispatchTimeInterval, _ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await work()
      done.signal()
    }
    _ = done.wait(timeout: .now() + limit)
  }
}

/// The first stop's cause; later ones are "again".
final class StopLatch: Sendable {
  private let state = Mutex<StopCause?>(nil)

  /// Records `cause`; true when it is the first.
  func record(_ cause: StopCause) -> Bool {
    state.withLock { first in
      guard first == nil else { return false }
      first = cause
      return true
    }
  }

  var cause: StopCause? { state.withLock { $0 } }
}

/// What the CLI says when it is stopped.
enum InterruptionMessages {
  static func first(_ cause: StopCause) -> String {
    "\nauthflow: \(cause.name): stopping; running cleanup and writing reports (again to exit now)\n"
  }

  static func again(_ cause: StopCause) -> String {
    "\nauthflow: \(cause.name) again: writing the reports of what finished and exiting now\n"
  }
}
