import AuthFlowCore
import AuthFlowMockHosting
import AuthFlowReporting
import AuthFlowResults
import AuthFlowScenario
import Foundation
import Testing

@testable import AuthFlowRuntime

/// With a spool (as `authflow run` has), the runner keeps no scenario's report: each goes to the
/// spool file as it finishes, and the run report reads them back. Memory is checked by structure,
/// not by measuring it: the report's scenarios are produced from the spool, and nothing was held
/// in memory instead.
@Suite struct SpooledRunTests {
  static let scenarios = [
    """
    scenario: Holds
    steps:
      - id: one
        set: { x: 1 }
        expect: { x: 1 }
    """,
    """
    scenario: Fails
    steps:
      - id: one
        set: { x: 1 }
        expect: { x: 2 }
      - id: two
        set: { y: 1 }
    """,
    """
    scenario: Needs a capability
    requires: [passwordless]
    steps:
      - id: one
        set: { x: 1 }
    """,
  ]

  static func spool(capacity: Int) throws -> ScenarioSpool {
    try ScenarioSpool(directory: NSTemporaryDirectory(), capacity: capacity) {
      $0.spooled(secrets: SecretRegistry(), keepingResults: true)
    }
  }

  @Test("The runner holds no report: every one is read back from the spool, in the given order")
  func theRunnerHoldsNoReport() async throws {
    let spool = try Self.spool(capacity: 3)
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    harness.spool = spool
    harness.jobs = 3
    let report = try await harness.run(Self.scenarios)
    let inMemory = try await ScenarioHarness(baseURL: "http://127.0.0.1:9/").run(Self.scenarios)
    #expect(report.scenarios.isProduced)
    #expect(spool.storedCount(in: 0..<3) == 3)
    #expect(spool.keptInMemoryCount == 0)
    #expect(!report.interrupted)
    #expect(report.scenarios.map(\.name) == inMemory.scenarios.map(\.name))
    #expect(report.scenarios.map(\.status) == [.passed, .failed, .skipped])
    #expect(report.scenarios.map { $0.steps.map(\.status) } == inMemory.scenarios.map { $0.steps.map(\.status) })
    #expect(report.scenarios[1].steps[0].problems == inMemory.scenarios[1].steps[0].problems)
    #expect(report.exitCode == .failure)
    #expect(report.count(.skipped) == 1)
  }

  @Test("Stopped part-way, the scenario cut short and the one never started are reported from the plan")
  func anInterruptedSpooledRun() async throws {
    let slow = """
      scenario: Cut short
      steps:
        - id: before
          set: { ready: true }
        - id: pause
          wait: 30s
      """
    let later = """
      scenario: Never started
      steps:
        - id: pause
          wait: 10ms
      """
    let spool = try Self.spool(capacity: 2)
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    harness.jobs = 1
    harness.spool = spool
    let stops = harness.stops
    let (started, began) = AsyncStream.makeStream(of: Void.self)
    harness.observer = FirstStep(continuation: began)
    let task = Task { [harness] in try await harness.run([slow, later]) }
    for await _ in started { break }
    // As the CLI does: the cause first, then the cancellation.
    stops.record(.signal("SIGTERM"))
    task.cancel()
    let report = try await task.value
    #expect(report.interrupted)
    #expect(report.stopCause == .signal("SIGTERM"))
    #expect(report.scenarios.isProduced)
    #expect(report.scenarios.map(\.status) == [.interrupted, .interrupted])
    #expect(report.scenarios.map(\.started) == [true, false])
    #expect(report.scenarios[0].skipReason == "the run was interrupted by SIGTERM while this scenario was running")
    #expect(report.scenarios[1].skipReason == "the run was interrupted by SIGTERM before this scenario started")
    // The one never started lists its planned steps, none run: spooled like the others.
    #expect(report.scenarios[1].steps.map(\.id) == ["pause"])
    #expect(report.scenarios[1].steps.allSatisfy { $0.status == .interrupted && $0.attempts == 0 })
    #expect(spool.storedCount(in: 0..<2) == 2)
    #expect(spool.keptInMemoryCount == 0)
  }

  @Test("A lazily planned, spooled run stopped before it began spools each scenario's planned steps from its file")
  func aStoppedLazySpooledRunReadsPlannedSteps() async throws {
    let directory = try PipelineStageTests.directory(LazyPlanTests.files(count: 3))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await LazyPlanTests.plan(directory)
    #expect(plan.instances.allSatisfy { $0.loaded == nil })
    let stops = StopRecord()
    stops.record(.signal("SIGINT"))
    let spool = try Self.spool(capacity: plan.instances.count)
    let report = try await NotStartedTests.run(plan, stops: stops, cancelled: true, spool: spool)
    #expect(report.scenarios.isProduced)
    #expect(report.interrupted && report.stopCause == .signal("SIGINT"))
    #expect(spool.storedCount(in: 0..<plan.instances.count) == plan.instances.count)
    #expect(report.scenarios.allSatisfy { $0.status == .interrupted && !$0.started })
    #expect(report.scenarios.prefix(3).map { $0.steps.map(\.id) } == [["only"], ["only"], ["only"]])
    #expect(report.scenarios.dropFirst(3).allSatisfy { $0.steps.map(\.id) == ["first", "second"] })
    #expect(report.count(.interrupted) == plan.instances.count)
  }
}

/// Yields once when the first step finishes.
private struct FirstStep: RunObserver {
  let continuation: AsyncStream<Void>.Continuation

  func scenarioStarted(name: String, file: String) async {}
  func stepFinished(_ report: StepReport, scenario: String) async { continuation.yield() }
  func scenarioFinished(_ report: ScenarioReport) async { continuation.finish() }
}
