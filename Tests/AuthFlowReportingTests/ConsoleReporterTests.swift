import AuthFlowCore
import AuthFlowResults
import Testing

@testable import AuthFlowReporting

@Suite struct ConsoleReporterTests {
  private func render(
    _ report: RunReport, environment: [String: String] = [:], isTerminal: Bool = false, live: Bool = false,
    quiet: Bool = false
  ) async throws -> String {
    let output = CapturedOutput()
    var context = ReportFixtures.context(output, environment: environment, isTerminal: isTerminal)
    context.quiet = quiet
    let console = ConsoleReporter(spec: ReporterSpec(name: "console"), context: context)
    await console.runStarted(
      RunStart(tenant: report.tenant, scenarioCount: report.scenarios.count, startedAt: report.startedAt))
    if live {
      // As the runner does: scenarios that ran are observed; skipped ones never start.
      for scenario in report.scenarios.reversed() where scenario.status != .skipped {
        await console.observer?.scenarioStarted(name: scenario.name, file: scenario.file)
        for step in scenario.steps { await console.observer?.stepFinished(step, scenario: scenario.name) }
        await console.observer?.scenarioFinished(scenario)
      }
    }
    try await console.finish(report)
    return await output.console
  }

  @Test func plainSummary() async throws {
    expectSnapshot(try await render(ReportFixtures.run), named: "console-plain")
  }

  /// A scenario that ended before any step (its file changed after validation) says why, not
  /// "no details were recorded".
  @Test func aScenarioWithoutStepsSaysItsReason() async throws {
    let text = try await render(ReportFixtures.changedFile)
    #expect(
      text.contains("    the scenario file changed after it was validated: scenarios/changed.yaml:1:1"), "\(text)")
    #expect(!text.contains(ConsoleMessages.noDetails))
  }

  @Test func liveLinesComeFirstAndAreNotRepeated() async throws {
    let text = try await render(ReportFixtures.run, live: true)
    expectSnapshot(text, named: "console-live")
    #expect(text.components(separatedBy: "✓ Login works [connection: email]").count == 2)
    #expect(text.contains("− Passwordless login  skipped"))
  }

  /// `--quiet`: no line per scenario, live or at the end; the summary as without it.
  @Test func quietPrintsOnlyTheSummary() async throws {
    let full = try await render(ReportFixtures.run)
    let header = try #require(full.firstIndex(of: "\n"))
    let summary = try #require(full.range(of: "\nFailures"))
    for live in [false, true] {
      let text = try await render(ReportFixtures.run, live: live, quiet: true)
      #expect(text == String(full[...header] + full[summary.lowerBound...]))
      #expect(!text.contains("✓ Login works [connection: email]"))
    }
  }

  @Test func colorsOnATerminal() async throws {
    let text = try await render(ReportFixtures.run, isTerminal: true)
    expectSnapshot(text, named: "console-colors")
    #expect(text.contains("\u{1B}[32m✓\u{1B}[0m"))
  }

  @Test func noColorWhenNoColorIsSetOrNotATerminal() async throws {
    for (environment, terminal) in [(["NO_COLOR": "1"], true), (["TERM": "dumb"], true), ([:], false)] {
      let text = try await render(ReportFixtures.run, environment: environment, isTerminal: terminal)
      #expect(!text.contains("\u{1B}["))
    }
    // An empty NO_COLOR does not count (https://no-color.org).
    #expect(try await render(ReportFixtures.run, environment: ["NO_COLOR": ""], isTerminal: true).contains("\u{1B}["))
  }

  /// Report content can't drive the terminal: its control characters are shown, not sent.
  @Test func contentCannotInjectEscapeSequences() async throws {
    let text = try await render(ReportFixtures.run)
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains(#"the page said: <b>Log in</b> & \u{1B}[31mretry"#))
  }

  @Test func interrupted() async throws {
    let text = try await render(ReportFixtures.interrupted)
    expectSnapshot(text, named: "console-interrupted")
    #expect(text.contains("INTERRUPTED"))
  }
}
