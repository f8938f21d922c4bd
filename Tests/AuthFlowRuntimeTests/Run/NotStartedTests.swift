import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowReporting
import AuthFlowResults
import AuthFlowScenario
import Foundation
import Synchronization
import Testing

@testable import AuthFlowRuntime

/// A scenario that never starts — skipped before its first step, or never reached by a stopped
/// run — still reports the steps it planned (id, action, phase, `needs`), none run, with its
/// reason; the observers see it finish (the progress line counts it); a stopped run's reasons
/// name what stopped it.
@Suite struct NotStartedTests {
  static let planned = """
    scenario: Planned flow
    requires: [passkeys]
    steps:
      - id: first
        wait: 1ms
      - id: second
        wait: 1ms
      - id: side
        needs: [first]
        wait: 1ms
    cleanup:
      - id: tidy
        set: { x: 1 }
    """

  static let ordinary = """
    scenario: Runs
    steps:
      - id: only
        set: { x: 1 }
    """

  @Test("A scenario skipped for a capability lists its planned steps, not run, and is seen to finish")
  func skippedScenarioCarriesItsPlannedSteps() async throws {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    let counter = FinishCounter()
    harness.observer = counter
    let report = try await harness.run([Self.planned, Self.ordinary])
    let skipped = try #require(report.scenarios.first)
    #expect(skipped.status == .skipped && !skipped.started)
    #expect(skipped.skipReason?.contains("lacks capability 'passkeys'") == true)
    #expect(skipped.steps.map(\.id) == ["first", "second", "side", "tidy"])
    #expect(skipped.steps.map(\.phase) == [.main, .main, .main, .cleanup])
    #expect(skipped.steps.map(\.needs) == [[], ["first"], ["first"], []])
    #expect(skipped.steps.allSatisfy { $0.status == .skipped && $0.skipReason == skipped.skipReason })
    #expect(skipped.steps.allSatisfy { $0.attempts == 0 && $0.duration == .zero })
    #expect(report.scenarios.last?.started == true)
    // Both finished for the observers, though only one started: the progress line reaches 2/2.
    #expect(counter.started == 1 && counter.finished == 2)
    #expect(counter.line.text(width: 200) == "2/2 done, 0 failed")
    // --fail-on-skip still counts it, once.
    #expect(report.skips.map(\.scenario) == ["Planned flow"])
    #expect(report.exitCode(failOnSkip: true) == .failure)
  }

  @Test("A stopped run names its cause in every reason, and lists the planned steps of what never started")
  func stopCauseNamedAndPlannedStepsListed() async throws {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    harness.jobs = 1
    let (started, began) = AsyncStream.makeStream(of: Void.self)
    harness.observer = StepWatcher(step: "before", continuation: began)
    let stops = harness.stops
    let task = Task { [harness] in try await harness.run([InterruptionTests.slow, InterruptionTests.later]) }
    for await _ in started { break }
    // As the CLI does: the cause first, then the cancellation.
    stops.record(.runTimeout("2s"))
    task.cancel()
    let report = try await task.value

    #expect(report.stopCause == .runTimeout("2s"))
    let cut = try #require(report.scenarios.first)
    #expect(cut.started)
    #expect(cut.skipReason == "the run's --run-timeout of 2s passed while this scenario was running")
    #expect(cut.step("pause")?.skipReason == "the run's --run-timeout of 2s passed")
    let never = try #require(report.scenarios.last)
    #expect(!never.started && never.status == .interrupted)
    #expect(never.skipReason == "the run's --run-timeout of 2s passed before this scenario started")
    #expect(never.steps.map(\.id) == ["pause"])
    #expect(never.steps.allSatisfy { $0.status == .interrupted && $0.attempts == 0 })
  }

  @Test("A lazily planned run stopped before it began reads each never-started scenario's steps from its file")
  func lazyPlanReadsPlannedStepsFromFiles() async throws {
    let directory = try PipelineStageTests.directory(LazyPlanTests.files(count: 3))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await LazyPlanTests.plan(directory)
    #expect(plan.instances.allSatisfy { $0.loaded == nil })
    let stops = StopRecord()
    stops.record(.signal("SIGINT"))
    // Stopped before any scenario starts: the runs' task is cancelled from its first moment (the
    // tenant is bound first, as `authflow run` binds before it runs).
    let report = try await Self.run(plan, stops: stops, cancelled: true)
    #expect(report.interrupted && report.stopCause == .signal("SIGINT"))
    #expect(report.scenarios.count == 6)
    #expect(report.scenarios.allSatisfy { $0.status == .interrupted && !$0.started })
    #expect(
      report.scenarios.allSatisfy { $0.skipReason == "the run was interrupted by SIGINT before this scenario started" })
    // The matrix file's three instances, and each other file, with their own steps.
    #expect(report.scenarios.prefix(3).map { $0.steps.map(\.id) } == [["only"], ["only"], ["only"]])
    #expect(report.scenarios.dropFirst(3).allSatisfy { $0.steps.map(\.id) == ["first", "second"] })
    #expect(report.scenarios.last?.steps.last?.needs == ["first"])
  }

  @Test("Reading the planned steps is bounded: past the budget the rest are listed without them")
  func plannedStepsAreBounded() async throws {
    let directory = try PipelineStageTests.directory(LazyPlanTests.files(count: 2))
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try await LazyPlanTests.plan(directory)
    var spent = NotStartedReports(
      loading: InstanceLoading(functions: Pipeline.functions), cause: nil, budget: .zero)
    var ample = NotStartedReports(loading: InstanceLoading(functions: Pipeline.functions), cause: nil)
    for instance in plan.instances {
      let without = spent.report(instance)
      #expect(without.steps.isEmpty && !without.started && without.status == .interrupted)
      #expect(!ample.report(instance).steps.isEmpty)
    }
  }

  static func run(
    _ plan: RunPlan, stops: StopRecord, cancelled: Bool, spool: ScenarioSpool? = nil
  ) async throws -> RunReport {
    let secrets = SecretRegistry()
    let bound = try await plan.bind(
      TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: "."))
    let transport = LiveTransport()
    var services = RunServices(secrets: secrets, transport: transport)
    services.stops = stops
    let runs = bound.runs(services: services, jobs: 2, keepsStepResults: true, spool: spool)
    let instances = plan.instances
    let reports = await Task {
      if cancelled { withUnsafeCurrentTask { $0?.cancel() } }
      return await runs.run(instances)
    }.value
    await bound.stop()
    try? await transport.shutdown()
    return try #require(reports.first)
  }

  static let chromiumStep = """
    scenario: Signs in with chromium
    steps:
      - id: discovery
        wait: 1ms
      - id: login
        web_auth: { browser: chromium, stop_at: login }
    """

  static let htmlStep = """
    scenario: Signs in with the built-in driver
    steps:
      - id: login
        web_auth: { browser: html, stop_at: login }
    """

  /// A host that finds no chromium (nothing on its PATH, no AUTHFLOW_CHROMIUM).
  static var noChromium: ChromiumHost {
    var configuration = ChromiumHost.Configuration()
    configuration.environment = ["PATH": "/nonexistent-authflow-test"]
    return ChromiumHost(configuration: configuration, observe: { _ in })
  }

  @Test("Without chromium, a scenario that needs it is skipped with the reason; others still run")
  func noChromiumSkips() async throws {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9/")
    harness.clients = ["native": ["client_id": "abc", "redirect_uri": "app://callback"]]
    harness.chromium = Self.noChromium
    let report = try await harness.run([Self.chromiumStep, Self.htmlStep])
    let skipped = try #require(report.scenarios.first)
    #expect(skipped.status == .skipped && !skipped.started)
    #expect(
      skipped.skipReason?.hasPrefix(
        "step 'login' drives the login pages in chromium (browser: chromium), and this machine has none: chromium was not found"
      ) == true, "\(skipped.skipReason ?? "")")
    #expect(skipped.steps.map(\.id) == ["discovery", "login"])
    // The built-in driver's scenario is not skipped (it fails on the unreachable tenant instead).
    #expect(report.scenarios.last?.status != .skipped)
    #expect(report.scenarios.last?.started == true)
    // A tenant whose pages are chromium's: a web_auth naming no engine needs it too.
    harness.settings = ["browser": "chromium"]
    let tenantWide = try await harness.run(
      """
      scenario: Tenant-wide chromium
      steps:
        - id: login
          web_auth: { stop_at: login }
      """)
    #expect(tenantWide.status == .skipped)
  }

  /// "Not installed" is only a missing chromium: an `AUTHFLOW_CHROMIUM` that names no program is
  /// the launch's error (exit 3), not a skip.
  @Test func notInstalledMeansNoneFound() {
    #expect(Self.noChromium.notInstalled?.message.hasPrefix("chromium was not found") == true)
    var configuration = ChromiumHost.Configuration()
    configuration.environment = ["PATH": "/nonexistent-authflow-test", "AUTHFLOW_CHROMIUM": "/nonexistent/chromium"]
    #expect(ChromiumHost(configuration: configuration, observe: { _ in }).notInstalled == nil)
  }
}

/// Counts the scenarios the observers were told started and finished, and keeps the progress
/// line they would draw.
final class FinishCounter: RunObserver {
  private let state = Mutex((started: 0, finished: 0, line: ProgressLine(total: 2)))
  func scenarioStarted(name: String, file: String) async {
    state.withLock { state in
      state.started += 1
      state.line.started(name: name, file: file)
    }
  }
  func stepFinished(_ step: StepReport, scenario: String) async {}
  func scenarioFinished(_ report: ScenarioReport) async {
    state.withLock { state in
      state.finished += 1
      state.line.finished(name: report.name, file: report.file, status: report.status)
    }
  }
  var started: Int { state.withLock { $0.started } }
  var finished: Int { state.withLock { $0.finished } }
  var line: ProgressLine { state.withLock { $0.line } }
}

/// Yields once when the step named `step` finishes.
private struct StepWatcher: RunObserver {
  let step: String
  let continuation: AsyncStream<Void>.Continuation

  func scenarioStarted(name: String, file: String) async {}
  func stepFinished(_ report: StepReport, scenario: String) async {
    if report.id == step { continuation.yield() }
  }
  func scenarioFinished(_ report: ScenarioReport) async { continuation.finish() }
}
