import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import Foundation
import Testing

/// A run stopped part-way (Ctrl-C, SIGTERM, a closed standard output cancel the runner's task)
/// reports every scenario it did not see through as `interrupted` — never `passed`, whatever its
/// cleanup did — and never leaves one out (Issue 11).
@Suite struct InterruptionTests {
  static let slow = """
    scenario: Cut short
    steps:
      - id: before
        set: { ready: true }
      - id: pause
        wait: 30s
    cleanup:
      - id: tidy
        set: { tidied: true }
    """

  static let later = """
    scenario: Never started
    steps:
      - id: pause
        wait: 10ms
    """

  @Test("A scenario cut short is interrupted though its cleanup passed; one not started is interrupted too")
  func cutShortScenarioIsInterrupted() async throws {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    harness.jobs = 1
    // Cancelled once 'before' has finished, so the first scenario is surely under way (a fixed
    // sleep lost that race on a machine busy with the whole suite).
    let (started, began) = AsyncStream.makeStream(of: Void.self)
    harness.observer = StepWatcher(step: "before", continuation: began)
    let task = Task { [harness] in try await harness.run([Self.slow, Self.later]) }
    for await _ in started { break }
    task.cancel()
    let report = try await task.value

    #expect(report.interrupted)
    #expect(report.exitCode == .failure)
    let cut = try #require(report.scenarios.first)
    #expect(cut.status == .interrupted)
    #expect(cut.skipReason == "the run was interrupted while this scenario was running")
    #expect(cut.step("pause")?.status == .interrupted)
    #expect(cut.step("tidy")?.status == .passed)
    let never = try #require(report.scenarios.last)
    #expect(never.status == .interrupted)
    #expect(never.skipReason == "the run was interrupted before this scenario started")
  }

  @Test("A scenario timeout is still a timeout, not an interruption")
  func scenarioTimeoutIsNotAnInterruption() async throws {
    let harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    let report = try await harness.run(
      """
      scenario: Too slow
      timeout: 100ms
      steps:
        - id: pause
          wait: 5s
        - id: after
          set: { x: 1 }
      """)
    #expect(report.status == .failed)
    #expect(report.step("pause")?.status == .failed)
    #expect(report.step("after")?.status == .skipped)
  }
}

/// Yields once when the step named `step` finishes.
private struct StepWatcher: RunObserver {
  let step: String
  let continuation: AsyncStream<Void>.Continuation

  func scenarioStarted(name: String, file: String) async {}
  func stepFinished(_ report: StepReport, scenario: String) async {
    if report.id == step { continuation.yield() }
  }
  /// Ends the stream, so that a waiter never hangs if the step never comes.
  func scenarioFinished(_ report: ScenarioReport) async { continuation.finish() }
}
