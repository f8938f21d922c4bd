import AuthFlowRuntime

/// The JUnit reporter's texts.
enum JUnitMessages {
  static let interruptedComment = "INTERRUPTED: the run was stopped before every scenario finished"
  static let skipped = "skipped"

  static func noDetails(_ status: Status) -> String {
    status == .error ? "the scenario hit an environment error" : "the scenario failed"
  }

  /// One step's problems, each with its location and labelled details.
  static func details(_ step: StepReport) -> String {
    let verb = step.status == .error ? "hit an environment error" : "failed"
    let attempts = step.attempts > 1 ? " after \(step.attempts) attempts" : ""
    var lines = ["\(step.title) \(verb)\(attempts) (\(step.location))"]
    for problem in step.problems {
      lines.append("  \(problem.location(in: step)): \(problem.message)")
      lines += problem.detailLines.map { "    \($0.label): \($0.text)" }
    }
    return lines.joined(separator: "\n")
  }
}
