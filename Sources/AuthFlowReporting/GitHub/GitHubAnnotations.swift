import AuthFlowCore
import AuthFlowResults

/// The workflow commands for a redacted report: an `::error` for every problem of a failed step,
/// a `::warning` for every problem of a step that hit an environment error, an `::error` for every
/// interrupted scenario (it never held), a `::warning` for every check written `severity: warning`
/// that did not hold (whatever the scenario's status), and a `::warning` when the run was
/// interrupted. Otherwise passed and skipped scenarios produce none.
///
/// Written scenario by scenario (``lines(of:in:)``), in three passes over the run — interrupted
/// scenarios, then failures and errors, then warnings — so a long run's annotations are printed
/// as they are made, never held together.
struct GitHubAnnotations {
  var report: RunReport

  /// The passes over the run, in the order their annotations are printed.
  enum Pass: CaseIterable {
    case interrupted
    case problems
    case warnings
  }

  func render() -> String {
    var lines: [String] = []
    for pass in Pass.allCases {
      for scenario in report.scenarios { lines += self.lines(of: scenario, in: pass) }
    }
    lines += closingLines()
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// The annotations `scenario` gets in `pass`.
  func lines(of scenario: ScenarioReport, in pass: Pass) -> [String] {
    var lines: [String] = []
    switch pass {
    case .interrupted:
      guard scenario.status == .interrupted else { return [] }
      lines.append(
        annotation(
          .failed, at: scenario.location, title: GitHubMessages.title(scenario, step: nil),
          message: scenario.skipReason ?? GitHubMessages.scenarioInterrupted))
    case .problems:
      guard scenario.status == .failed || scenario.status == .error else { return [] }
      let steps = scenario.stepsThatDidNotPass
      if steps.isEmpty {
        lines.append(
          annotation(
            scenario.status, at: scenario.location, title: GitHubMessages.title(scenario, step: nil),
            message: JUnitMessages.noDetails(scenario)))
      }
      for step in steps {
        let command: Status = step.status == .error ? .error : .failed
        let title = GitHubMessages.title(scenario, step: step)
        let dependants = ReportMessages.skippedDependants(of: step, in: scenario).map { "\n" + $0 } ?? ""
        if step.problems.isEmpty {
          lines.append(
            annotation(command, at: step.location, title: title, message: GitHubMessages.stepFailed + dependants))
        }
        for (index, problem) in step.problems.filter({ $0.severity == .error }).enumerated() {
          let message = GitHubMessages.message(problem) + (index == 0 ? dependants : "")
          lines.append(annotation(command, at: problem.location(in: step), title: title, message: message))
        }
      }
    case .warnings:
      for step in scenario.steps {
        for problem in step.problems where problem.severity == .warning {
          let location = problem.location(in: step)
          lines.append(
            GitHubEscaping.command(
              "warning",
              properties: [
                ("file", location.file), ("line", String(location.line)), ("col", String(location.column)),
                ("title", GitHubMessages.warningTitle(scenario, step: step)),
              ],
              message: GitHubMessages.message(problem)))
        }
      }
    }
    return lines
  }

  /// What follows every scenario's annotations: the warning that the run was interrupted.
  func closingLines() -> [String] {
    guard report.interrupted else { return [] }
    return [
      GitHubEscaping.command(
        "warning", properties: [("title", GitHubMessages.interruptedTitle)], message: GitHubMessages.interrupted(report)
      )
    ]
  }

  private func annotation(_ status: Status, at location: SourceLocation, title: String, message: String) -> String {
    GitHubEscaping.command(
      status == .error ? "warning" : "error",
      properties: [
        ("file", location.file), ("line", String(location.line)), ("col", String(location.column)), ("title", title),
      ],
      message: message)
  }
}
