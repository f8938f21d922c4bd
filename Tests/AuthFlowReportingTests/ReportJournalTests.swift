import AuthFlowCore
import AuthFlowResults
import Foundation
import Synchronization
import Testing

@testable import AuthFlowReporting

/// The file reports are kept current while the run goes on, so a run stopped hard still leaves a
/// valid report of everything that finished, and of the rest as interrupted.
@Suite struct ReportJournalTests {
  static func planned() -> [ScenarioReport] {
    ReportFixtures.interrupted.scenarios.map { scenario in
      var notRun = scenario
      notRun.status = .interrupted
      notRun.skipReason = "the run was interrupted before this scenario started"
      notRun.steps = []
      return notRun
    }
  }

  static func journal(_ output: CapturedOutput, interval: Duration = .seconds(60)) throws -> ReportJournal {
    let group = try ReporterRegistry.builtIn.make(
      arguments: ["console", "json:r.json", "junit:r.xml"], context: ReportFixtures.context(output))
    return ReportJournal(
      reporters: group, tenant: "mock", startedAt: ReportFixtures.startedAt, planned: planned(),
      minimumInterval: interval)
  }

  /// Counts how many times the planned list was built.
  final class BuildCount: Sendable {
    let value = Mutex(0)

    func planned() -> [ScenarioReport] {
      value.withLock { $0 += 1 }
      return ReportJournalTests.planned()
    }
  }

  @Test func withoutAFileReporterThePlannedScenariosAreNeverBuiltOrKept() async throws {
    let output = CapturedOutput()
    let count = BuildCount()
    let consoleOnly = try ReporterRegistry.builtIn.make(arguments: ["console"], context: ReportFixtures.context(output))
    let idle = ReportJournal(
      reporters: consoleOnly, tenant: "mock", startedAt: ReportFixtures.startedAt, planned: count.planned())
    #expect(!idle.isNeeded)
    #expect(count.value.withLock { $0 } == 0)
    let withFile = try ReporterRegistry.builtIn.make(
      arguments: ["json:r.json"], context: ReportFixtures.context(output))
    let busy = ReportJournal(
      reporters: withFile, tenant: "mock", startedAt: ReportFixtures.startedAt, planned: count.planned())
    #expect(busy.isNeeded)
    #expect(count.value.withLock { $0 } == 1)
    await busy.writeNow()
    let json = try Value(jsonText: try #require(await output.files["r.json"]))
    #expect(json.lookup(path: ["run", "counts", "interrupted"]) == 4)
  }

  /// A report to a stream (`json:/dev/stdout`) is written once at the end: the journal's rewrites
  /// would repeat it into the stream.
  @Test func aReportToAStreamIsNotRewritten() async throws {
    let output = CapturedOutput()
    let stream = try ReporterRegistry.builtIn.make(
      arguments: ["json:/dev/null"], context: ReportFixtures.context(output))
    let journal = ReportJournal(
      reporters: stream, tenant: "mock", startedAt: ReportFixtures.startedAt, planned: Self.planned())
    #expect(!journal.isNeeded)
    await journal.writeNow()
    #expect(await output.files["/dev/null"] == nil)
  }

  @Test func everySnapshotIsAValidReportOfWhatFinished() async throws {
    let output = CapturedOutput()
    let journal = try Self.journal(output)
    await journal.writeNow()
    var json = try Value(jsonText: try #require(await output.files["r.json"]))
    #expect(json.lookup(path: ["run", "interrupted"]) == true)
    #expect(json.lookup(path: ["run", "counts", "interrupted"]) == 4)
    #expect(await output.console.isEmpty)

    let login = ReportFixtures.interrupted.scenarios[0]
    await journal.scenarioStarted(name: login.name, file: login.file)
    await journal.scenarioFinished(login)
    await journal.scenarioStarted(name: ReportFixtures.refresh.name, file: ReportFixtures.refresh.file)
    await journal.writeNow()
    json = try Value(jsonText: try #require(await output.files["r.json"]))
    #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
    #expect(json.lookup(path: ["scenarios", "1", "status"]) == "interrupted")
    #expect(
      json.lookup(path: ["scenarios", "1", "skip_reason"]) == "the run was interrupted while this scenario was running")
    #expect(
      json.lookup(path: ["scenarios", "2", "skip_reason"]) == "the run was interrupted before this scenario started")
    #expect(JUnitReporterTests.parseError(try #require(await output.files["r.xml"])) == nil)
  }

  @Test func rewritesAreThrottled() async throws {
    let output = CapturedOutput()
    let journal = try Self.journal(output, interval: .seconds(60))
    await journal.writeNow()
    for scenario in ReportFixtures.interrupted.scenarios { await journal.scenarioFinished(scenario) }
    #expect(await journal.writeCount == 1)
    await journal.close()
    await journal.writeNow()
    #expect(await journal.writeCount == 1)
  }

  @Test func aFinishedScenarioIsWrittenWithinTheInterval() async throws {
    let output = CapturedOutput()
    let journal = try Self.journal(output, interval: .milliseconds(50))
    await journal.writeNow()
    await journal.scenarioFinished(ReportFixtures.interrupted.scenarios[0])
    var written = false
    for _ in 0..<100 where !written {
      try await Task.sleep(for: .milliseconds(20))
      written = await journal.writeCount >= 2
    }
    #expect(written)
    let json = try Value(jsonText: try #require(await output.files["r.json"]))
    #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
    await journal.close()
  }

  @Test func withASpoolTheJournalReadsTheFinishedScenariosFromIt() async throws {
    let output = CapturedOutput()
    let group = try ReporterRegistry.builtIn.make(
      arguments: ["json:r.json", "junit:r.xml"], context: ReportFixtures.context(output))
    let planned = Self.planned()
    let spool = try ScenarioSpool(directory: NSTemporaryDirectory(), capacity: planned.count) {
      $0.spooled(secrets: SecretRegistry(), keepingResults: true)
    }
    let journal = ReportJournal(
      reporters: group, tenant: "mock", startedAt: ReportFixtures.startedAt, planned: ScenarioReports(planned),
      spool: spool, minimumInterval: .seconds(60))
    spool.store(ReportFixtures.interrupted.scenarios[0], at: 0)
    spool.started(at: 1)
    await journal.scenarioFinished(ReportFixtures.interrupted.scenarios[0])
    await journal.writeNow()
    let json = try Value(jsonText: try #require(await output.files["r.json"]))
    #expect(json.lookup(path: ["run", "interrupted"]) == true)
    #expect(json.lookup(path: ["run", "counts", "passed"]) == 1)
    #expect(json.lookup(path: ["run", "counts", "interrupted"]) == 3)
    #expect(json.lookup(path: ["scenarios", "0", "status"]) == "passed")
    #expect(
      json.lookup(path: ["scenarios", "1", "skip_reason"]) == "the run was interrupted while this scenario was running")
    #expect(
      json.lookup(path: ["scenarios", "2", "skip_reason"]) == "the run was interrupted before this scenario started")
    #expect(JUnitReporterTests.parseError(try #require(await output.files["r.xml"])) == nil)
    await journal.close()
  }
}
