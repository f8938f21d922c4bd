import AuthFlowCore
import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowReporting

/// A run with thousands of failures must not hold (or print) every failure's story in its
/// summaries: the console lists at most ``ConsoleSummary/limit`` of each kind and the GitHub job
/// summary ``GitHubStepSummary/limit`` rows, each saying how many more there were. The file
/// reports keep every scenario.
@Suite struct BoundedSummaryTests {
  static func run(failures: Int) -> RunReport {
    let scenarios = (0..<failures).map { index in
      var failed = ReportFixtures.specials
      failed.name = "Failure \(index)"
      return failed
    }
    return RunReport(
      tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .seconds(1),
      scenarios: scenarios + [ReportFixtures.passwordless], interrupted: false)
  }

  @Test func theConsoleListsAHundredFailuresAndCountsTheRest() async throws {
    let output = CapturedOutput()
    let console = ConsoleReporter(spec: ReporterSpec(name: "console"), context: ReportFixtures.context(output))
    try await console.finish(Self.run(failures: 150))
    let text = await output.console
    #expect(text.contains("✗ Failure 99\n"))
    #expect(!text.contains("✗ Failure 100\n    "), "the 101st failure's story is not printed")
    #expect(text.contains("… and 50 more failed scenarios (not listed here: the file reports have every one)"))
    // Every scenario still has its line, and the totals count them all.
    #expect(text.contains("✗ Failure 149  "))
    #expect(text.contains("151 scenarios: 0 passed, 150 failed, 0 errors, 1 skipped"))
    // Sections within the limit say nothing more.
    #expect(!text.contains("more skipped"))
  }

  @Test func theGitHubJobSummaryListsTwoHundredRowsAndCountsTheRest() async throws {
    let output = CapturedOutput()
    let github = GitHubReporter(
      spec: ReporterSpec(name: "github"),
      context: ReportFixtures.context(output, environment: ["GITHUB_STEP_SUMMARY": "summary.md"]))
    try await github.finish(Self.run(failures: 250))
    let summary = try #require(await output.files["summary.md"])
    let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| ✗ | Failure ") }
    #expect(rows.count == GitHubStepSummary.limit)
    #expect(summary.contains("… and 50 more rows (the file reports have every problem)"))
    // The annotations, printed as they are made, are not cut.
    #expect(await output.console.components(separatedBy: "::error ").count - 1 == 250)
  }
}
