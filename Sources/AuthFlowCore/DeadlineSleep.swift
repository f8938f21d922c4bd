/// The sleep of a deadline that usually does not pass: `Task.sleep` in slices of at most
/// ``slice``, so that a sleep cancelled early leaves its timer behind for at most one slice.
///
/// A cancelled `Task.sleep(for:)` returns at once, but the concurrency runtime keeps its timer (a
/// dispatch timer source and a task, about 0.5 KB) until the original deadline passes. A run
/// races every scenario, step, cleanup and HTTP exchange against a deadline — a scenario's
/// `timeout` is an hour by default — and almost every race is won by the work, so each left a
/// timer for the rest of the process: seven per scenario of the bench corpus, 3.5 KB, the largest
/// part of a long run's growing memory (docs/benchmarks.md). Sliced, what stays behind is bounded
/// by the races started in the last ``slice``, whatever the run's length. A deadline that does
/// pass wakes once per slice: a few wake-ups a second for a whole run.
public enum DeadlineSleep {
  /// The longest single `Task.sleep`.
  public static let slice: Duration = .seconds(1)

  /// Sleeps for `duration` (continuous clock); throws `CancellationError` when the task is
  /// cancelled, like `Task.sleep(for:)`.
  public static func sleep(for duration: Duration) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: duration)
    while true {
      let now = clock.now
      guard now < deadline else { return }
      try await Task.sleep(until: min(deadline, now.advanced(by: slice)), clock: clock)
    }
  }
}
