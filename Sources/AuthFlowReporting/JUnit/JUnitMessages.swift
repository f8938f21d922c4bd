import AuthFlowCore
import AuthFlowResults
import Foundation

/// The JUnit reporter's texts.
enum JUnitMessages {
  /// `INTERRUPTED: the run was stopped by SIGTERM before every scenario finished`, as an XML
  /// comment may hold it: no `--` (`by its run-timeout of 20m`).
  static func interruptedComment(_ report: RunReport) -> String {
    "INTERRUPTED: \(ReportMessages.stopped(report))".replacingOccurrences(of: "--", with: "")
  }
  static let skipped = "skipped"
  static let interrupted = "the run was interrupted"

  /// `  step 'login' passed`, `  cleanup step 'logout' interrupted: the run was interrupted`.
  static func stepLine(_ step: StepReport) -> String {
    "  \(step.title) \(step.status.rawValue)" + (step.skipReason.map { ": \($0)" } ?? "")
  }

  /// `step 'reuse' failed after 3 attempts`, `step 'userinfo' hit an environment error`.
  static func stepStatus(_ step: StepReport) -> String { ConsoleMessages.stepStatus(step) }

  /// One line per step (`✓ step 'login' passed in 820ms`, `− step 'x' skipped: it needs …`), with
  /// each problem and its expected and actual indented under a step that did not pass. A scenario
  /// that never started lists the steps it planned, none run (``plannedLog(_:)``).
  static func stepLog(_ scenario: ScenarioReport) -> String {
    if !scenario.started { return plannedLog(scenario) }
    var lines: [String] = []
    for step in scenario.steps {
      var line = "\(step.status.mark) \(step.title) \(step.status.rawValue)"
      if step.status != .skipped { line += " in \(DurationText.format(step.duration))" }
      if step.attempts > 1 { line += " (\(step.attempts) attempts)" }
      if let reason = step.skipReason { line += ": \(reason)" }
      lines.append(line)
      for problem in step.problems {
        let prefix = problem.severity == .warning ? "warning: " : ""
        lines.append("    \(prefix)\(problem.location(in: step)): \(indented(problem.message, by: 6))")
        lines += problem.detailLines.filter { $0.label == "expected" || $0.label == "actual" }
          .map { "      \($0.label): \(indented($0.text, by: 8))" }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `not started (reason); none of its steps ran:` then `○ step 'login' · web_auth · needs a, b`
  /// per planned step.
  static func plannedLog(_ scenario: ScenarioReport) -> String {
    let reason = scenario.skipReason.map { " (\($0))" } ?? ""
    let noun = scenario.steps.count == 1 ? "its step did not run" : "none of its \(scenario.steps.count) steps ran"
    var lines = ["not started\(reason); \(noun):"]
    for step in scenario.steps {
      let needs = step.needs.isEmpty ? "" : " · needs " + step.needs.joined(separator: ", ")
      lines.append("○ \(step.title) · \(step.action)\(needs)")
    }
    return lines.joined(separator: "\n")
  }

  /// What a failed or errored scenario with no failing step says: its own reason when it has one
  /// (a scenario file changed after validation), else that it failed.
  static func noDetails(_ scenario: ScenarioReport) -> String {
    scenario.skipReason
      ?? (scenario.status == .error ? "the scenario hit an environment error" : "the scenario failed")
  }

  /// One step's problems, each with its location and labelled details.
  static func details(_ step: StepReport, in scenario: ScenarioReport) -> String {
    let verb = step.status == .error ? "hit an environment error" : "failed"
    let attempts = step.attempts > 1 ? " after \(step.attempts) attempts" : ""
    var lines = ["\(step.title) \(verb)\(attempts) (\(step.location))"]
    for problem in step.problems where problem.severity == .error {
      lines.append("  \(problem.location(in: step)): \(indented(problem.message, by: 4))")
      lines += problem.detailLines.map { "    \($0.label): \(indented($0.text, by: 6))" }
    }
    if let dependants = ReportMessages.skippedDependants(of: step, in: scenario) { lines.append("  " + dependants) }
    return lines.joined(separator: "\n")
  }

  /// `<system-out>` with the scenario's warnings, one `warning: location: message` line each
  /// with its details; empty when it has none.
  static func warnings(_ scenario: ScenarioReport) -> String {
    var lines: [String] = []
    for step in scenario.steps {
      for problem in step.problems where problem.severity == .warning {
        lines.append("warning: \(problem.location(in: step)): \(step.title): \(indented(problem.message, by: 4))")
        lines += problem.detailLines.map { "    \($0.label): \(indented($0.text, by: 6))" }
      }
    }
    guard !lines.isEmpty else { return "" }
    return "<system-out>" + MarkupEscaping.xml(lines.joined(separator: "\n")) + "</system-out>"
  }

  /// Continuation lines indented under the first.
  private static func indented(_ text: String, by width: Int) -> String {
    text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: width))
  }
}
