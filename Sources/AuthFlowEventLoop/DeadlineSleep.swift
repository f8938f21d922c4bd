public import NIOCore
import NIOPosix
import Synchronization

/// The sleep of a deadline that usually does not pass.
///
/// A run races every scenario, step, cleanup and HTTP exchange against a deadline, and almost
/// every race is won by the work: the sleep is started and cancelled a few times per request.
///
/// - On an event loop (a task preferring an ``EventLoopTaskExecutor``: every scenario of a run),
///   the sleep is a timer in that loop's own schedule. Starting it and cancelling it are calls on
///   the thread the task already runs on, and a cancelled timer leaves the schedule at once.
/// - Elsewhere it is `Task.sleep` in slices of at most ``slice``. A cancelled `Task.sleep` returns
///   at once, but the concurrency runtime keeps its timer (a dispatch timer source and a task,
///   about 0.5 KB) until the original deadline passes — a scenario's `timeout` is an hour by
///   default. Sliced, what stays behind is bounded by the races started in the last ``slice``,
///   whatever the run's length; a deadline that does pass wakes once per slice.
///
/// The dispatch timers were about a tenth of a login run's CPU (the timer thread, its wake-ups
/// and the pool's): docs/benchmarks.md, "One thread per exchange".
public enum DeadlineSleep {
  /// The longest single `Task.sleep` off an event loop.
  public static let slice: Duration = .seconds(1)

  /// Sleeps for `duration` (continuous clock); throws `CancellationError` when the task is
  /// cancelled, like `Task.sleep(for:)`.
  public static func sleep(for duration: Duration) async throws {
    if let loop = MultiThreadedEventLoopGroup.currentEventLoop {
      try await sleep(for: duration, on: loop)
    } else {
      try await slicedSleep(for: duration)
    }
  }

  /// Sleeps for `duration` on `loop`'s schedule.
  public static func sleep(for duration: Duration, on loop: any EventLoop) async throws {
    try Task.checkCancellation()
    let timer = LoopTimer()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        guard timer.wait(continuation) else { return }
        let scheduled = loop.scheduleTask(in: TimeAmount(saturating: duration)) { timer.finish(cancelled: false) }
        // A loop that is shutting down never runs the timer: the deadline is then over.
        scheduled.futureResult.whenFailure { _ in timer.finish(cancelled: false) }
        timer.schedule(scheduled)
      }
    } onCancel: {
      timer.finish(cancelled: true)
    }
  }

  static func slicedSleep(for duration: Duration) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: duration)
    while true {
      let now = clock.now
      guard now < deadline else { return }
      try await Task.sleep(until: min(deadline, now.advanced(by: slice)), clock: clock)
    }
  }
}

/// One sleep on a loop: its continuation is resumed once — by the timer, or with
/// `CancellationError` by a cancellation, which also takes the timer out of the loop's schedule.
private final class LoopTimer: Sendable {
  private enum State {
    case starting
    case waiting(CheckedContinuation<Void, any Error>, Scheduled<Void>?)
    case cancelledEarly
    case finished
  }

  private let state = Mutex(State.starting)

  /// Keeps the continuation; false (and the continuation resumed) when the sleep was already cancelled.
  func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
    let cancelled = state.withLock { state -> Bool in
      guard case .starting = state else { return true }
      state = .waiting(continuation, nil)
      return false
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
    return !cancelled
  }

  /// Keeps the timer, or cancels it when the sleep ended meanwhile.
  func schedule(_ scheduled: Scheduled<Void>) {
    let keep = state.withLock { state -> Bool in
      guard case .waiting(let continuation, nil) = state else { return false }
      state = .waiting(continuation, scheduled)
      return true
    }
    if !keep { scheduled.cancel() }
  }

  /// Ends the sleep: normally when the timer fired, with `CancellationError` when cancelled.
  func finish(cancelled: Bool) {
    let ending = state.withLock { state -> (CheckedContinuation<Void, any Error>, Scheduled<Void>?)? in
      switch state {
      case .starting:
        state = .cancelledEarly
        return nil
      case .waiting(let continuation, let scheduled):
        state = .finished
        return (continuation, scheduled)
      case .cancelledEarly, .finished:
        return nil
      }
    }
    guard let (continuation, scheduled) = ending else { return }
    if cancelled {
      scheduled?.cancel()
      continuation.resume(throwing: CancellationError())
    } else {
      continuation.resume()
    }
  }
}

extension TimeAmount {
  /// The duration in nanoseconds, saturating: past Int64 nanoseconds (about 292 years) it waits
  /// "forever" instead of trapping; a negative duration is none.
  public init(saturating duration: Duration) {
    let (seconds, attoseconds) = duration.components
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else {
      self = .nanoseconds(seconds < 0 ? 0 : .max)
      return
    }
    let (total, overflowSum) = nanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
    self = .nanoseconds(overflowSum ? .max : max(0, total))
  }
}
