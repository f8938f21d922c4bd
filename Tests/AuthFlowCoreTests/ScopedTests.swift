import AuthFlowTestSupport
import Foundation
import Synchronization
import Testing

/// The shared test helpers of AuthFlowTestSupport (`Scoped`) do what the tests that use them rely
/// on: the cleanup is awaited also after a throw, the scratch directory is gone afterwards, and a
/// wait says what ended it.
@Suite struct ScopedTests {
  struct Failure: Error {}

  @Test func theCleanupRunsAfterAThrowAndTheErrorGoesOn() async {
    let cleaned = Mutex(false)
    await #expect(throws: Failure.self) {
      try await Scoped.run({ throw Failure() }, finally: { cleaned.withLock { $0 = true } })
    }
    #expect(cleaned.withLock { $0 })
  }

  @Test func theScratchDirectoryExistsDuringTheBodyAndIsGoneAfterwards() async throws {
    let path = try await Scoped.directory(prefix: "authflow-scoped") { directory in
      try "x".write(to: directory.appending(path: "f.txt"), atomically: true, encoding: .utf8)
      #expect(FileManager.default.fileExists(atPath: directory.appending(path: "f.txt").path))
      return directory.path
    }
    #expect(path.contains("authflow-scoped-"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// The limit is a day, so that only the condition (or `giveUp`) can end these waits: what is
  /// checked is what ended them, never how long they took on a loaded machine.
  @Test func aWaitEndsTrueWhenTheConditionHoldsAndFalseWhenGivenUp() async {
    let looks = Mutex(0)
    let held = await Scoped.waitUntil(limit: .seconds(86_400), every: .milliseconds(1)) {
      looks.withLock {
        $0 += 1
        return $0 == 3
      }
    }
    #expect(held)
    #expect(looks.withLock { $0 } == 3)
    #expect(await Scoped.waitUntil(limit: .seconds(86_400), giveUp: { true }) { false } == false)
  }
}
