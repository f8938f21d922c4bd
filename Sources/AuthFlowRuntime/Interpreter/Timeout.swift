import AuthFlowCore

/// The outcome of racing work against a deadline.
enum Deadline<Result: Sendable>: Sendable {
  case finished(Result)
  case timedOut
}

/// Runs `body`, cancelling it when `duration` passes first. A cancellation from outside is passed
/// on to `body`, whose own result is returned. `onExpiry` runs when the deadline passes, before
/// `body` is cancelled (to record what it was doing).
func withDeadline<Result: Sendable>(
  _ duration: Duration, onExpiry: @escaping @Sendable () -> Void = {},
  _ body: @escaping @Sendable () async -> Result
) async -> Deadline<Result> {
  await withTaskGroup(of: Deadline<Result>?.self) { group in
    group.addTask { .finished(await body()) }
    group.addTask {
      do {
        try await DeadlineSleep.sleep(for: duration)
        onExpiry()
        return .timedOut
      } catch {
        return nil
      }
    }
    while let next = await group.next() {
      if let outcome = next {
        group.cancelAll()
        return outcome
      }
    }
    return .timedOut
  }
}
