import AuthFlowCore
public import AuthFlowResults

/// Live progress on standard output, one line per finished scenario, then a summary of every
/// failure (step, YAML location, path, expected and actual), skip reasons, `INTERRUPTED` when the
/// run was stopped, and the counts. Colors only on a terminal and never with `NO_COLOR`. With
/// `--quiet` (``ReporterContext/quiet``) only the header and the summary.
public struct ConsoleReporter: Reporter, RunObserver {
  public static let description = ReporterDescription(
    name: "console", takesFile: false,
    summary: "live progress and a summary of failures on standard output (the default)", example: "console")

  let context: ReporterContext
  let style: ConsoleStyle
  let live = ConsoleLiveState()

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.context = context
    self.style = ConsoleStyle.resolve(environment: context.environment, isTerminal: context.isTerminal)
  }

  public var observer: (any RunObserver)? { self }

  public func runStarted(_ run: RunStart) async {
    var safe = run
    safe.tenant = context.secrets.scrub(run.tenant).terminalSafe
    await context.output.standardOutput(style.paint(ConsoleMessages.runStarted(safe), .bold) + "\n")
  }

  public func scenarioStarted(name: String, file: String) async {}

  public func stepFinished(_ step: StepReport, scenario: String) async {}

  public func scenarioFinished(_ report: ScenarioReport) async {
    guard !context.quiet else { return }
    await live.markPrinted(file: report.file, name: report.name)
    await context.output.standardOutput(line(for: safeHeader(report), warnings: report.warnings.count) + "\n")
  }

  public func finish(_ report: RunReport) async throws {
    // One pass over the run: the lines of the scenarios not printed live, printed as they
    // gather, and the summary's bounded sections.
    var text = ""
    var summary = ConsoleSummary(
      interruption: report.interrupted ? ConsoleMessages.interrupted(report) : nil,
      totals: ConsoleMessages.totals(report), style: style)
    let secrets = context.secrets
    for scenario in report.scenarios {
      if !context.quiet, !(await live.consumePrinted(file: scenario.file, name: scenario.name)) {
        text += line(for: safeHeader(scenario), warnings: scenario.warnings.count) + "\n"
        if text.utf8.count >= ReportTextSink.chunkSize {
          await context.output.standardOutput(text)
          text = ""
        }
      }
      // The summary never prints step results: they are left out before redacting.
      summary.add(scenario) { $0.droppingStepResults().redacted(by: secrets).mappingTexts(\.terminalSafe) }
    }
    text += summary.render()
    await context.output.standardOutput(text)
  }

  /// What a scenario's line shows (name, status, time), redacted and without control
  /// characters. The steps are left out: the line never prints them, and redacting every step
  /// result of every scenario would cost more than the rest of the console output.
  private func safeHeader(_ scenario: ScenarioReport) -> ScenarioReport {
    var header = scenario
    header.steps = []
    return header.redacted(by: context.secrets).mappingTexts(\.terminalSafe)
  }

  /// `✓ Login works  1.25s`, `− Passwordless login  skipped`, `⊘ Slow login  interrupted`.
  /// A scenario with warnings says how many: `✓ Discovery  12ms  ⚠ 1 warning`.
  func line(for scenario: ScenarioReport, warnings: Int? = nil) -> String {
    let trailer =
      switch scenario.status {
      case .skipped: ConsoleMessages.skipped(nil)
      case .interrupted: Status.interrupted.rawValue
      default: DurationText.format(scenario.duration)
      }
    let warnings = warnings ?? scenario.warnings.count
    let flag = warnings == 0 ? "" : "  " + style.paint("⚠ \(warnings) warning\(warnings == 1 ? "" : "s")", .yellow)
    return "\(style.mark(scenario.status)) \(scenario.name)  \(style.paint(trailer, .dim))\(flag)"
  }
}
