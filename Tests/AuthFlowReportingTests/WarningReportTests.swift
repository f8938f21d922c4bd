import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

/// Checks written `severity: warning` (a SHOULD): every reporter shows them, none counts them as a
/// failure.
@Suite struct WarningReportTests {
  static let pack = "conformance-pack/oidcc-userinfo-post-body.yaml"

  /// A passed scenario with one warning, and a failed one with a warning beside its error.
  static let run: RunReport = {
    let location = { (line: Int, column: Int) in SourceLocation(file: pack, line: line, column: column) }
    let warning = Problem(
      .expectation, "expected status to equal 200, found 401", at: location(24, 15), path: "status",
      matcher: "equals", expected: "200", actual: "401", severity: .warning)
    let passed = ScenarioReport(
      name: "oidcc-userinfo-post-body", file: pack, location: location(2, 1), tags: ["oidcc"], status: .passed,
      duration: .milliseconds(40),
      steps: [
        StepReport(
          id: "userinfo", name: "userinfo", action: "http", phase: .main, location: location(20, 5), status: .passed,
          attempts: 1, problems: [warning])
      ])
    let error = Problem(
      .expectation, "expected error.code to equal invalid_grant, found nothing", at: location(40, 18),
      path: "error.code", matcher: "equals", expected: "invalid_grant", actual: "nothing")
    let failed = ScenarioReport(
      name: "oidcc-codereuse", file: pack, location: location(2, 1), tags: [], status: .failed,
      duration: .milliseconds(55),
      steps: [
        StepReport(
          id: "second_exchange", name: "second_exchange", action: "token", phase: .main, location: location(38, 5),
          status: .failed, attempts: 1,
          problems: [
            Problem(
              .expectation, "expected error.status to be at least 400, found 200", at: location(41, 20),
              severity: .warning), error,
          ])
      ])
    return RunReport(
      tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .milliseconds(100), scenarios: [passed, failed],
      interrupted: false)
  }()

  @Test func theRunModelCountsWarningsApartFromFailures() {
    #expect(Self.run.warningCount == 2)
    #expect(Self.run.scenarios[0].warnings.count == 1)
    #expect(Self.run.count(.failed) == 1)
    // Only warnings: the exit code is 0.
    let onlyWarnings = RunReport(
      tenant: "mock", startedAt: Self.run.startedAt, duration: .zero, scenarios: [Self.run.scenarios[0]],
      interrupted: false)
    #expect(onlyWarnings.exitCode == .success)
    #expect(Self.run.exitCode == .failure)
  }

  @Test func consoleMarksTheScenarioAndListsTheWarnings() async throws {
    let output = CapturedOutput()
    let console = ConsoleReporter(spec: ReporterSpec(name: "console"), context: ReportFixtures.context(output))
    try await console.finish(Self.run)
    let text = await output.console
    #expect(text.contains("✓ oidcc-userinfo-post-body  40ms  ⚠ 1 warning"))
    #expect(text.contains("Warnings (severity: warning; they do not fail the run)"))
    #expect(text.contains("step 'userinfo': 1 warning"))
    #expect(text.contains("\(Self.pack):24:15: expected status to equal 200, found 401"))
    #expect(text.contains("2 scenarios: 1 passed, 1 failed, 0 errors, 0 skipped; 2 warnings"))
    // The failure section lists the error, not the warning beside it.
    let failures = try #require(
      text.components(separatedBy: "Failures").last?.components(separatedBy: "Warnings").first)
    #expect(failures.contains("expected error.code to equal invalid_grant"))
    #expect(!failures.contains("to be at least 400"))
  }

  @Test func junitPutsWarningsInSystemOutNotInFailures() async throws {
    let output = CapturedOutput()
    let reporter = JUnitReporter(
      spec: ReporterSpec(name: "junit", path: "out/junit.xml"), context: ReportFixtures.context(output))
    try await reporter.finish(Self.run)
    let xml = try #require(await output.files["out/junit.xml"])
    #expect(JUnitReporterTests.parseError(xml) == nil)
    #expect(xml.contains(#"tests="2" failures="1" errors="0""#))
    #expect(
      xml.contains(
        "    warning: \(Self.pack):24:15: expected status to equal 200, found 401"))
    let failure = try #require(
      xml.components(separatedBy: "<failure").last?.components(separatedBy: "</failure>").first)
    #expect(failure.contains("\(Self.pack):40:18: expected error.code to equal invalid_grant"))
    #expect(!failure.contains("to be at least 400"))
  }

  @Test func jsonGivesEachProblemItsSeverityAndCountsWarnings() async throws {
    let output = CapturedOutput()
    let reporter = JSONReporter(
      spec: ReporterSpec(name: "json", path: "out/report.json"), context: ReportFixtures.context(output))
    try await reporter.finish(Self.run)
    let value = try Value(jsonText: try #require(await output.files["out/report.json"]))
    #expect(value.lookup(path: ["run", "counts", "warnings"]) == 2)
    #expect(value.lookup(path: ["scenarios", "0", "warnings"]) == 1)
    #expect(value.lookup(path: ["scenarios", "0", "steps", "0", "problems", "0", "severity"]) == "warning")
    #expect(value.lookup(path: ["scenarios", "1", "steps", "0", "problems", "1", "severity"]) == "error")
    // A report read back for `report merge` keeps each problem's severity, so the count survives.
    let text = try #require(await output.files["out/report.json"])
    let merged = try JSONReport.merge([JSONReport.Input(name: "report.json", data: Data(text.utf8))])
    #expect(merged.warningCount == 2)
    let severities = merged.scenarios.flatMap(\.steps).flatMap(\.problems).map(\.severity)
    #expect(
      severities.filter { $0 == .error }.count == Self.run.scenarios.flatMap(\.steps).flatMap(\.problems).count - 2)
  }

  @Test func githubAnnotatesWarningsAsWarnings() async throws {
    let output = CapturedOutput()
    let reporter = GitHubReporter(
      spec: ReporterSpec(name: "github"),
      context: ReportFixtures.context(output, environment: ["GITHUB_STEP_SUMMARY": "/tmp/summary.md"]))
    try await reporter.finish(Self.run)
    let annotations = await output.console.split(separator: "\n").map(String.init)
    let warnings = annotations.filter { $0.hasPrefix("::warning ") }
    let errors = annotations.filter { $0.hasPrefix("::error ") }
    #expect(warnings.count == 2)
    #expect(
      warnings.contains { $0.contains("line=24,col=15") && $0.contains("title=warning%3A oidcc-userinfo-post-body") })
    #expect(errors.count == 1)
    #expect(errors.first?.contains("invalid_grant") == true)
    let summary = try #require(await output.files["/tmp/summary.md"])
    #expect(summary.contains("| ⚠ | oidcc-userinfo-post-body | step 'userinfo' |"))
  }

  @Test func theVerdictTableSaysPassWithWarnings() {
    #expect(TenantComparison.verdict(Self.run.scenarios[0]) == "pass, 1 warning")
    #expect(TenantComparison.verdict(Self.run.scenarios[1]) == "fail")
  }
}
