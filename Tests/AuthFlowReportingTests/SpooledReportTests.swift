import AuthFlowCore
import Foundation
import Testing

@testable import AuthFlowReporting
@testable import AuthFlowResults

/// A long run keeps its finished scenarios in a ``ScenarioSpool`` file, not in memory, and every
/// reporter reads them back from it: the reports must be the same, byte for byte, as those
/// rendered from the reports in memory, and the spool must never hold a secret the reports mask.
@Suite struct SpooledReportTests {
  static let reporters = ["console", "json:r.json", "junit:r.xml", "html:r.html", "github"]
  static let environment = ["GITHUB_STEP_SUMMARY": "summary.md"]

  /// Every output of every reporter for `report`.
  static func outputs(_ report: RunReport, secrets: SecretRegistry) async throws -> CapturedOutput {
    let output = CapturedOutput()
    let context = ReportFixtures.context(output, secrets: secrets, environment: environment)
    let group = try ReporterRegistry.builtIn.make(arguments: reporters, context: context)
    try await group.finish(report)
    return output
  }

  /// `report` with its scenarios spooled (as the runner spools them) and read back from the file.
  static func spooled(
    _ report: RunReport, secrets: SecretRegistry, keepingResults: Bool = true, in directory: String? = nil
  ) throws -> (RunReport, ScenarioSpool) {
    let spool = try ScenarioSpool(
      directory: directory ?? FileManager.default.temporaryDirectory.path, capacity: report.scenarios.count
    ) { $0.spooled(secrets: secrets, keepingResults: keepingResults) }
    // Out of order, as concurrent scenarios finish.
    for position in report.scenarios.indices.reversed() { spool.store(report.scenarios[position], at: position) }
    var read = report
    let original = report.scenarios
    read.scenarios = spool.reports(in: 0..<original.count) { position, _ in original[position] }
    return (read, spool)
  }

  static var comparison: RunReport {
    var other = ReportFixtures.run
    other.tenant = "staging"
    return RunReport.combining([ReportFixtures.run, other])
  }

  static let runs: [(String, RunReport)] = [
    ("every status", ReportFixtures.run), ("interrupted", ReportFixtures.interrupted),
    ("two tenants", comparison),
  ]

  /// The runs compared hold what the spool must carry besides finished scenarios: a scenario
  /// skipped before it started (its planned steps, `started` false), one a stop never reached,
  /// and an interrupted run's stop cause.
  @Test func theComparedRunsHoldNotStartedScenariosAndAStopCause() {
    let scenarios = Self.runs.flatMap { Array($0.1.scenarios) }
    #expect(scenarios.contains { !$0.started && $0.status == .skipped && !$0.steps.isEmpty })
    #expect(scenarios.contains { !$0.started && $0.status == .interrupted && !$0.steps.isEmpty })
    #expect(Self.runs.contains { $0.1.interrupted && $0.1.stopCause == .signal("SIGTERM") })
  }

  @Test(arguments: [false, true])
  func everyReporterWritesTheSameBytesFromTheSpool(revealSecrets: Bool) async throws {
    for (name, report) in Self.runs {
      let secrets = SecretRegistry(revealSecrets: revealSecrets)
      // A secret the run learnt, which the texts quote.
      secrets.register("auth0|alice")
      secrets.register("127.0.0.1:8100")
      let (spooled, spool) = try Self.spooled(report, secrets: secrets)
      #expect(spooled.scenarios.isProduced)
      #expect(spool.keptInMemoryCount == 0)
      #expect(spooled.scenarios.map(\.started) == report.scenarios.map(\.started), "\(name): started")
      #expect(spooled.stopCause == report.stopCause)
      let inMemory = try await Self.outputs(report, secrets: secrets)
      let fromSpool = try await Self.outputs(spooled, secrets: secrets)
      #expect(await fromSpool.console == inMemory.console, "\(name): console")
      let files = await inMemory.files
      #expect(Set(files.keys) == ["r.json", "r.xml", "r.html", "summary.md"])
      for (path, text) in files {
        let spooledText = await fromSpool.files[path]
        #expect(spooledText == text, "\(name): \(path)")
      }
    }
  }

  @Test func theTotalsAreKnownWithoutReadingTheSpool() throws {
    let (spooled, _) = try Self.spooled(ReportFixtures.run, secrets: SecretRegistry())
    #expect(spooled.scenarios.summary == ScenarioReports(Array(ReportFixtures.run.scenarios)).summary)
    #expect(spooled.count(.failed) == 2)
    #expect(spooled.exitCode == ReportFixtures.run.exitCode)
  }

  @Test func aReportReadBackKeepsEveryField() throws {
    var report = ReportFixtures.refresh
    report.tenant = "staging"
    report.skipReason = "a reason"
    report.duration = Duration(secondsComponent: 3, attosecondsComponent: 123_456_789_012_345_678)
    report.steps[1].problems.append(Problem(.timeout, "warned", at: nil, severity: .warning))
    report.steps[1].result = ["nested": ["list": [1, 2.5, true, .null, "text\n\"quoted\""]]]
    report.steps[3].result = .null
    let spool = try ScenarioSpool(directory: FileManager.default.temporaryDirectory.path) { $0 }
    spool.store(report, at: 3)
    let read = spool.reports(in: 3..<4) { _, _ in ReportFixtures.passwordless }[0]
    // Secret-wrapped values come back as the mask; everything else as it was.
    var expected = report
    for step in expected.steps.indices {
      expected.steps[step].result = expected.steps[step].result?.settlingSecrets(reveal: false)
    }
    #expect(SpoolRecord.encode(read) == SpoolRecord.encode(expected))
    #expect(read.duration == report.duration)
    #expect(read.tenant == "staging" && read.skipReason == "a reason" && read.tags == report.tags)
    #expect(read.steps.map(\.duration) == report.steps.map(\.duration))
    #expect(read.steps.map(\.problems) == report.steps.map(\.problems))
    #expect(read.steps.map(\.needs) == report.steps.map(\.needs))
    #expect(read.steps.map(\.blockedBy) == report.steps.map(\.blockedBy))
    #expect(read.steps.map(\.exchanges) == report.steps.map(\.exchanges))
    #expect(read.steps.map(\.attempts) == report.steps.map(\.attempts))
    #expect(read.started)
    #expect(read.steps[1].result == expected.steps[1].result)
    // No result and a result of null stay apart.
    #expect(read.steps[2].result == nil)
    #expect(read.steps[3].result == .null)
  }

  @Test func aScenarioThatNeverStartedIsReadBackWithItsPlannedSteps() throws {
    let spool = try ScenarioSpool(directory: FileManager.default.temporaryDirectory.path) { $0 }
    let planned = ReportFixtures.interrupted.scenarios[ReportFixtures.interrupted.scenarios.count - 1]
    #expect(!planned.started && !planned.steps.isEmpty)
    spool.store(planned, at: 0)
    spool.store(ReportFixtures.passwordless, at: 1)
    let read = spool.reports(in: 0..<2) { _, _ in ReportFixtures.refresh }
    for (original, back) in zip([planned, ReportFixtures.passwordless], read) {
      #expect(!back.started)
      #expect(SpoolRecord.encode(back) == SpoolRecord.encode(original))
      #expect(back.steps.map(\.id) == original.steps.map(\.id))
      #expect(back.steps.map(\.needs) == original.steps.map(\.needs))
      #expect(back.steps.map(\.phase) == original.steps.map(\.phase))
      #expect(back.steps.map(\.skipReason) == original.steps.map(\.skipReason))
    }
  }

  /// The report model declares every stored property of the reports: a property added to a
  /// report fails here until its field is declared in ``ReportModel`` (and then the spool, the
  /// JSON report, its decoder and schema all have it).
  @Test func theModelDeclaresEveryFieldOfAReport() {
    func declared<Model>(_ object: ReportObject<Model>) -> [String] {
      object.fields.compactMap { $0.property.map { String(String(describing: $0).split(separator: ".").last ?? "") } }
    }
    func stored(_ model: Any) -> [String] { Mirror(reflecting: model).children.compactMap(\.label) }
    let step = ReportFixtures.refresh.steps[1]
    #expect(Set(declared(ReportModel.scenario)) == Set(stored(ReportFixtures.refresh)))
    #expect(Set(declared(ReportModel.step)) == Set(stored(step)))
    #expect(Set(declared(ReportModel.problem)) == Set(stored(step.problems[0])))
    #expect(Set(declared(ReportModel.location)) == Set(stored(SourceLocation(file: "f", line: 1, column: 2))))
  }

  @Test func aPositionWithoutAReportIsTheFallbackAndSaysWhetherItWasRunning() throws {
    let spool = try ScenarioSpool(directory: FileManager.default.temporaryDirectory.path, capacity: 3) { $0 }
    spool.started(at: 1)
    spool.store(ReportFixtures.passwordless, at: 0)
    let reports = spool.reports(in: 0..<3) { position, running in
      var report = ReportFixtures.interrupted.scenarios[3]
      report.name = "\(position) \(running)"
      return report
    }
    #expect(reports.map(\.name) == [ReportFixtures.passwordless.name, "1 true", "2 false"])
    #expect(reports.summary.counts == [.skipped: 1, .interrupted: 2])
    #expect(spool.storedCount(in: 0..<3) == 1)
  }

  @Test func theSpoolHasNoNameInItsDirectory() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (spooled, spool) = try Self.spooled(ReportFixtures.run, secrets: SecretRegistry(), in: directory)
    #expect(spooled.scenarios.count == ReportFixtures.run.scenarios.count)
    #expect(!spool.contents().isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test func aSpoolThatCannotBeCreatedSaysWhere() {
    #expect(throws: ScenarioSpool.CreationError.self) {
      try ScenarioSpool(directory: "/nonexistent-authflow-directory") { $0 }
    }
  }

  @Test func theSpoolNeverHoldsASecretInClear() throws {
    let secrets = SecretRegistry()
    let learnt = "learnt-secret-0123456789"
    secrets.register(learnt)
    var report = ReportFixtures.refresh
    report.steps[1].problems[0].actual = "the tenant said \(learnt)"
    report.steps[1].exchanges.append("→ GET https://tenant.example/cb?code=\(learnt)")
    report.steps[1].result = ["wrapped": .secret("wrapped-secret-value-42"), "quoted": .string("x \(learnt) y")]
    let (_, spool) = try Self.spooled(
      RunReport(
        tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .zero, scenarios: [report], interrupted: false),
      secrets: secrets)
    let contents = String(decoding: spool.contents(), as: UTF8.self)
    #expect(contents.contains("***"))
    for secret in [learnt, "wrapped-secret-value-42", "v1.MRrt-opaque-token", "opaque-access-token"] {
      #expect(!contents.contains(secret), "\(secret) is in the spool")
    }
    // The JWT's raw text is masked; its claims are shown, as the reports show them.
    #expect(contents.contains("auth0|alice"))
  }

  @Test func withoutAReporterOfResultsTheSpoolKeepsNone() throws {
    let (spooled, spool) = try Self.spooled(ReportFixtures.run, secrets: SecretRegistry(), keepingResults: false)
    #expect(spooled.scenarios.allSatisfy { $0.steps.allSatisfy { $0.result == nil && $0.exchanges.isEmpty } })
    #expect(!String(decoding: spool.contents(), as: UTF8.self).contains("Bearer"))
  }

  @Test func theStreamedJSONReportIsTheDocumentItDescribes() throws {
    for (_, report) in Self.runs {
      let reporter = JSONReporter(
        spec: ReporterSpec(name: "json", path: "r.json"), context: ReportFixtures.context(CapturedOutput()))
      let redacted = report.expandingTokens().redacted(by: SecretRegistry())
      let whole = JSONReport.text(JSONReport.value(of: redacted), revealSecrets: false)
      #expect(reporter.render(report) == whole)
    }
  }
}

extension ScenarioReport {
  /// The report as the spool gives it back: secret-wrapped values settled to the mask.
  fileprivate var settledForComparison: ScenarioReport {
    var copy = self
    for step in copy.steps.indices {
      copy.steps[step].result = copy.steps[step].result?.settlingSecrets(reveal: false)
    }
    return copy
  }
}
