import AuthFlowCore
import AuthFlowResults

/// The summary the console prints after the run: the scenarios that failed, hit an environment
/// error, warned, were skipped or interrupted — at most ``limit`` of each, with how many more
/// there were — then the totals.
///
/// Bounded: a run with 100,000 failures lists the first ``limit`` and counts the rest, so the
/// summary neither holds every failure's story nor prints a screenful per scenario; every
/// failure is in the file reports.
struct ConsoleSummary {
  /// The most scenarios each section lists.
  static let limit = 100

  /// The scenarios one section lists (already redacted), and how many it had.
  struct Section {
    var shown: [ScenarioReport] = []
    var total = 0

    /// Counts `scenario`, and keeps what `keep` makes of it while the section has room.
    mutating func offer(_ scenario: ScenarioReport, limit: Int, keep: (ScenarioReport) -> ScenarioReport) {
      total += 1
      if shown.count < limit { shown.append(keep(scenario)) }
    }

    var omitted: Int { total - shown.count }
  }

  var failed = Section()
  var errored = Section()
  var warned = Section()
  var skipped = Section()
  var interrupted = Section()
  /// The line saying the run was stopped before every scenario finished (and by what); nil when
  /// it was not.
  var interruption: String?
  /// `N scenarios: … in 1.2s`, counted on the whole run.
  var totals: String
  var style: ConsoleStyle

  /// Whether the summary lists `scenario`: it did not pass, or it has warnings.
  static func lists(_ scenario: ScenarioReport) -> Bool {
    scenario.status != .passed || !scenario.warnings.isEmpty
  }

  init(interruption: String?, totals: String, style: ConsoleStyle) {
    self.interruption = interruption
    self.totals = totals
    self.style = style
  }

  /// Counts `scenario` in its sections; `keep` makes the copy a section lists (redacted, without
  /// step results), made only when the section still has room.
  mutating func add(
    _ scenario: ScenarioReport, limit: Int = ConsoleSummary.limit, keep: (ScenarioReport) -> ScenarioReport
  ) {
    guard Self.lists(scenario) else { return }
    var kept: ScenarioReport?
    let once = { (scenario: ScenarioReport) -> ScenarioReport in
      if let kept { return kept }
      let made = keep(scenario)
      kept = made
      return made
    }
    switch scenario.status {
    case .failed: failed.offer(scenario, limit: limit, keep: once)
    case .error: errored.offer(scenario, limit: limit, keep: once)
    case .skipped: skipped.offer(scenario, limit: limit, keep: once)
    case .interrupted: interrupted.offer(scenario, limit: limit, keep: once)
    case .passed: break
    }
    if !scenario.warnings.isEmpty { warned.offer(scenario, limit: limit, keep: once) }
  }

  func render() -> String {
    var lines: [String] = []
    if failed.total > 0 {
      lines += ["", style.paint(ConsoleMessages.failures, .bold)]
      lines += failed.shown.flatMap(explain)
      lines += more(failed, .failed)
    }
    if errored.total > 0 {
      lines += ["", style.paint(ConsoleMessages.errors, .bold)]
      lines += errored.shown.flatMap(explain)
      lines += more(errored, .error)
    }
    if warned.total > 0 {
      lines += ["", style.paint(ConsoleMessages.warnings, .bold)]
      lines += warned.shown.flatMap(warnings)
      lines += more(warned, nil)
    }
    if skipped.total > 0 {
      lines += ["", style.paint(ConsoleMessages.skipped, .bold)]
      lines += skipped.shown.flatMap { scenario in
        ["  \(style.mark(.skipped)) \(scenario.name): \(scenario.skipReason ?? ConsoleMessages.skipped(nil))"]
          + planned(scenario)
      }
      lines += more(skipped, .skipped)
    }
    if interrupted.total > 0 {
      lines += ["", style.paint(ConsoleMessages.interruptedHeading, .bold)]
      lines += interrupted.shown.flatMap { scenario in
        ["  \(style.mark(.interrupted)) \(scenario.name): \(ConsoleMessages.interrupted(scenario.skipReason))"]
          + planned(scenario)
      }
      lines += more(interrupted, .interrupted)
    }
    if let interruption {
      lines += ["", style.paint(interruption, .red)]
    }
    lines += ["", style.paint(totals, .bold)]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `  … and 1,234 more failed scenarios (every one is in the file reports)`, when a section was cut.
  private func more(_ section: Section, _ status: Status?) -> [String] {
    guard section.omitted > 0 else { return [] }
    let line = "  " + ConsoleMessages.more(section.omitted, status: status)
    return status == .failed || status == .error ? ["", line] : [line]
  }

  /// For a scenario that never started, the steps it planned (none ran), dimmed.
  private func planned(_ scenario: ScenarioReport) -> [String] {
    ReportMessages.plannedSteps(of: scenario).map { ["      " + style.paint($0, .dim)] } ?? []
  }

  /// The scenario, then each step that did not pass with each problem and its details.
  private func explain(_ scenario: ScenarioReport) -> [String] {
    var lines = [
      "", "  \(style.mark(scenario.status)) \(scenario.name)", "    \(style.paint("\(scenario.location)", .dim))",
    ]
    let steps = scenario.stepsThatDidNotPass
    if steps.isEmpty { lines.append("    \(scenario.skipReason ?? ConsoleMessages.noDetails)") }
    for step in steps {
      lines.append("    \(ConsoleMessages.stepStatus(step))")
      if step.problems.isEmpty {
        lines.append("      \(style.paint("\(step.location)", .dim)): \(ConsoleMessages.noDetails)")
      }
      for problem in step.problems where problem.severity == .error {
        lines += describe(problem, in: step)
      }
      if let dependants = ReportMessages.skippedDependants(of: step, in: scenario) {
        lines.append("      \(style.mark(.skipped)) \(dependants)")
      }
    }
    return lines
  }

  /// A scenario's warnings: each step with checks written `severity: warning` that did not hold.
  private func warnings(_ scenario: ScenarioReport) -> [String] {
    var lines = ["", "  \(style.paint("⚠", .yellow)) \(scenario.name)"]
    for step in scenario.steps {
      let warnings = step.problems.filter { $0.severity == .warning }
      guard !warnings.isEmpty else { continue }
      lines.append("    \(ConsoleMessages.stepWarned(step, count: warnings.count))")
      for problem in warnings { lines += describe(problem, in: step) }
    }
    return lines
  }

  /// One problem: its location and message, then its labelled details.
  private func describe(_ problem: Problem, in step: StepReport) -> [String] {
    let location = style.paint("\(problem.location(in: step))", .dim)
    var lines = ["      \(location): \(indentContinuation(problem.message, by: 8))"]
    let details = problem.detailLines
    let width = (details.map(\.label.count).max() ?? 0) + 1
    for (label, text) in details {
      let padded = label + ":" + String(repeating: " ", count: width - label.count - 1)
      lines.append("        \(padded) \(indentContinuation(text, by: width + 9))")
    }
    return lines
  }

  /// Multi-line values keep their lines aligned under the first.
  private func indentContinuation(_ text: String, by width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: "\n" + String(repeating: " ", count: width))
  }
}
