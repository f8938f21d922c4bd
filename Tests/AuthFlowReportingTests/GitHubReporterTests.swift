import AuthFlowCore
import AuthFlowResults
import Testing

@testable import AuthFlowReporting

@Suite struct GitHubReporterTests {
  private func render(
    _ report: RunReport, environment: [String: String] = ["GITHUB_STEP_SUMMARY": "/tmp/summary.md"]
  ) async throws -> (annotations: String, summary: String?) {
    let output = CapturedOutput()
    let reporter = GitHubReporter(
      spec: ReporterSpec(name: "github"), context: ReportFixtures.context(output, environment: environment))
    try await reporter.finish(report)
    return (await output.console, await output.files["/tmp/summary.md"])
  }

  @Test func snapshot() async throws {
    let (annotations, summary) = try await render(ReportFixtures.run)
    expectSnapshot(annotations, named: "github-annotations")
    expectSnapshot(try #require(summary), named: "github-summary")
    for line in annotations.split(separator: "\n") {
      #expect(line.hasPrefix("::error file=") || line.hasPrefix("::warning file="))
    }
  }

  @Test func interrupted() async throws {
    let (annotations, summary) = try await render(ReportFixtures.interrupted)
    #expect(
      annotations.hasSuffix(
        "::warning title=authflow%3A run interrupted::The run was stopped by SIGTERM before every scenario finished; the scenarios cut short or not run are marked interrupted.\n"
      ))
    // An interrupted scenario is annotated as an error: it never held.
    #expect(
      annotations.contains(
        "::error file=scenarios/userinfo.yaml,line=8,col=1,title=Slow login::the run was interrupted by SIGTERM while this scenario was running"
      ))
    expectSnapshot(try #require(summary), named: "github-summary-interrupted")
  }

  @Test func aScenarioWithoutStepsSaysItsReason() async throws {
    let (annotations, summary) = try await render(ReportFixtures.changedFile)
    #expect(annotations.contains("the scenario file changed after it was validated"), "\(annotations)")
    #expect(summary?.contains("the scenario file changed after it was validated") == true, "\(summary ?? "")")
  }

  @Test func noSummaryWithoutTheVariable() async throws {
    let (annotations, summary) = try await render(ReportFixtures.run, environment: [:])
    #expect(!annotations.isEmpty)
    #expect(summary == nil)
  }

  @Test func appendsToAnExistingSummary() async throws {
    let output = CapturedOutput()
    try await output.write("# Earlier step\n", toFile: "s.md")
    let reporter = GitHubReporter(
      spec: ReporterSpec(name: "github"),
      context: ReportFixtures.context(output, environment: ["GITHUB_STEP_SUMMARY": "s.md"]))
    try await reporter.finish(ReportFixtures.run)
    #expect(await output.files["s.md"]?.hasPrefix("# Earlier step\n## ❌ authflow") == true)
  }

  @Test func escapesWorkflowCommands() {
    #expect(GitHubEscaping.data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b")
    #expect(GitHubEscaping.property("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext%3A a%2Cb")
    #expect(
      GitHubEscaping.command("error", properties: [("file", "a,b.yaml"), ("line", "3")], message: "x::y\nz")
        == "::error file=a%2Cb.yaml,line=3::x::y%0Az")
  }

  @Test func escapesMarkdown() {
    #expect("a|b *c* _d_ <e> & [f](g)\nh".markdownEscaped == #"a\|b \*c\* \_d\_ \<e\> &amp; \[f\](g)<br>h"#)
  }
}
