import AuthFlowCore
import AuthFlowResults
import Testing

@testable import AuthFlowReporting

/// Reports are written even when the run was interrupted: every reporter accepts a partial report.
@Suite struct InterruptedReportTests {
  @Test func everyReporterWritesAPartialReport() async throws {
    let output = CapturedOutput()
    let group = try ReporterRegistry.builtIn.make(
      arguments: ["console", "github", "json:r.json", "junit:r.xml"],
      context: ReportFixtures.context(output, environment: ["GITHUB_STEP_SUMMARY": "s.md"]))
    // The runner's view of Ctrl-C: one scenario finished live, then the partial report.
    await group.runStarted(RunStart(tenant: "mock", scenarioCount: 3, startedAt: ReportFixtures.startedAt))
    await group.observer?.scenarioFinished(ReportFixtures.interrupted.scenarios[0])
    try await group.finish(ReportFixtures.interrupted)

    let console = await output.console
    #expect(console.contains("INTERRUPTED"))
    #expect(console.contains("::warning title=authflow%3A run interrupted::"))
    let files = await output.files
    #expect(try Value(jsonText: try #require(files["r.json"])).lookup(path: ["run", "interrupted"]) == true)
    #expect(try #require(files["r.xml"]).contains("INTERRUPTED"))
    #expect(try #require(files["s.md"]).contains("INTERRUPTED"))
  }

  @Test func anEmptyInterruptedRunStillWrites() async throws {
    let output = CapturedOutput()
    let group = try ReporterRegistry.builtIn.make(
      arguments: ["console", "json:r.json", "junit:r.xml"], context: ReportFixtures.context(output))
    let report = RunReport(
      tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .milliseconds(5), scenarios: [],
      interrupted: true)
    try await group.finish(report)
    #expect(await output.console.contains("0 scenarios: 0 passed"))
    #expect(JUnitReporterTests.parseError(try #require(await output.files["r.xml"])) == nil)
    #expect(
      try Value(jsonText: try #require(await output.files["r.json"])).lookup(path: ["run", "counts", "total"]) == 0)
  }
}
