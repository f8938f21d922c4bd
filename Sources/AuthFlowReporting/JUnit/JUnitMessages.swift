import AuthFlowRuntime
import Foundation

/// The JUnit reporter's texts.
enum JUnitMessages {
  static let interruptedComment = "INTERRUPTED: the run was stopped before every scenario finished"
  static let skipped = "skipped"
  static let interrupted = "the run was interrupted"

  /// `  step 'login' passed`, `  cleanup step 'logout' interrupted: the run was interrupted`.
  static func stepLine(_ step: StepReport) -> String {
    "  \(step.title) \(step.status.rawValue)" + (step.skipReason.map { ": \($0)" } ?? "")
  }

  static func noDetails(_ status: Status) -> String {
    status == .error ? "the scenario hit an environment error" : "the scenario failed"
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
    return "<system-out>" + XMLEscaping.escape(lines.joined(separator: "\n")) + "</system-out>"
  }

  /// Continuation lines indented under the first.
  private static func indented(_ text: String, by width: Int) -> String {
    text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: width))
  }
}
