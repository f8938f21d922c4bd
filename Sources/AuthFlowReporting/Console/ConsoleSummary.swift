import AuthFlowCore
import AuthFlowResults

/// The summary the console prints after the run, from an already redacted report.
struct ConsoleSummary {
  /// The run with only the scenarios the summary lists (``lists(_:)``): a long run's passing
  /// scenarios are counted in ``totals``, not copied and redacted again.
  var report: RunReport
  /// `N scenarios: … in 1.2s`, counted on the whole run.
  var totals: String
  var style: ConsoleStyle

  /// Whether the summary lists `scenario`: it did not pass, or it has warnings.
  static func lists(_ scenario: ScenarioReport) -> Bool {
    scenario.status != .passed || !scenario.warnings.isEmpty
  }

  func render() -> String {
    var lines: [String] = []
    let failed = report.scenarios.filter { $0.status == .failed }
    let errored = report.scenarios.filter { $0.status == .error }
    let skipped = report.scenarios.filter { $0.status == .skipped }
    let interrupted = report.scenarios.filter { $0.status == .interrupted }
    if !failed.isEmpty {
      lines += ["", style.paint(ConsoleMessages.failures, .bold)]
      lines += failed.flatMap(explain)
    }
    if !errored.isEmpty {
      lines += ["", style.paint(ConsoleMessages.errors, .bold)]
      lines += errored.flatMap(explain)
    }
    let warned = report.scenarios.filter { !$0.warnings.isEmpty }
    if !warned.isEmpty {
      lines += ["", style.paint(ConsoleMessages.warnings, .bold)]
      lines += warned.flatMap(warnings)
    }
    if !skipped.isEmpty {
      lines += ["", style.paint(ConsoleMessages.skipped, .bold)]
      lines += skipped.flatMap { scenario in
        ["  \(style.mark(.skipped)) \(scenario.name): \(scenario.skipReason ?? ConsoleMessages.skipped(nil))"]
          + planned(scenario)
      }
    }
    if !interrupted.isEmpty {
      lines += ["", style.paint(ConsoleMessages.interruptedHeading, .bold)]
      lines += interrupted.flatMap { scenario in
        ["  \(style.mark(.interrupted)) \(scenario.name): \(ConsoleMessages.interrupted(scenario.skipReason))"]
          + planned(scenario)
      }
    }
    if report.interrupted {
      lines += ["", style.paint(ConsoleMessages.interrupted(report), .red)]
    }
    lines += ["", style.paint(totals, .bold)]
    return lines.joined(separator: "\n") + "\n"
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
    if steps.isEmpty { lines.append("    \(ConsoleMessages.noDetails)") }
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
