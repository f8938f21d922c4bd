public import Foundation

/// What tests set up and must take down again, whether the test passed, failed or threw: an async
/// `defer` (Swift's own cannot await), a scratch directory, and a bounded wait for a condition.
public enum Scoped {
  /// Runs `body`, then awaits `cleanup`, also when `body` throws (a stopped server, a shut-down
  /// client: never a fire-and-forget `Task` that may outlive the test).
  public static func run<T>(_ body: () async throws -> T, finally cleanup: () async -> Void) async throws -> T {
    do {
      let result = try await body()
      await cleanup()
      return result
    } catch {
      await cleanup()
      throw error
    }
  }

  /// Runs `body` with a new, empty directory under the temporary directory (named `prefix-UUID`),
  /// removed with its contents afterwards.
  public static func directory<T>(prefix: String = "authflow", _ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try await run({ try await body(directory) }, finally: { try? FileManager.default.removeItem(at: directory) })
  }

  /// Whether `condition` held within `limit`, looking every `interval`; false as soon as
  /// `giveUp` holds (the process that would make it true has exited). What ended the wait is
  /// what is returned, never how long it took.
  public static func waitUntil(
    limit: Duration, every interval: Duration = .milliseconds(50), giveUp: () -> Bool = { false },
    _ condition: () -> Bool
  ) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
      if condition() { return true }
      if giveUp() || ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: interval)
    }
  }
}
