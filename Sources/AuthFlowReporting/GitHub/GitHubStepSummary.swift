import AuthFlowCore
import AuthFlowResults

/// The Markdown job summary (`$GITHUB_STEP_SUMMARY`) for a redacted report: counts, a table of the
/// problems of failed and errored scenarios and the warnings of any, and the skipped scenarios with their reasons.
struct GitHubStepSummary {
  var report: RunReport

  func render() -> String {
    var lines = [
      GitHubMessages.summaryHeading(report),
      "",
      GitHubMessages.summaryRun(tenant: report.tenant.markdownEscaped, duration: DurationText.format(report.duration)),
    ]
    if report.interrupted { lines += ["", GitHubMessages.summaryInterrupted(report)] }
    let rows = problemRows()
    if !rows.isEmpty { lines += ["", GitHubMessages.summaryProblemsHeader] + rows }
    let skipped = report.scenarios.filter { $0.status == .skipped }
    if !skipped.isEmpty {
      lines += ["", GitHubMessages.summarySkipped(skipped.count)]
      lines += skipped.map { "- \($0.name.markdownEscaped): \(($0.skipReason ?? "skipped").markdownEscaped)" }
      lines.append("\n</details>")
    }
    return lines.joined(separator: "\n") + "\n\n"
  }

  private func problemRows() -> [String] {
    var rows: [String] = []
    for scenario in report.scenarios where scenario.status == .interrupted {
      rows.append(
        row(
          .interrupted, scenario.name, "", scenario.location, scenario.skipReason ?? GitHubMessages.scenarioInterrupted)
      )
    }
    for scenario in report.scenarios where scenario.status == .failed || scenario.status == .error {
      let steps = scenario.stepsThatDidNotPass
      if steps.isEmpty {
        rows.append(
          row(scenario.status, scenario.name, "", scenario.location, JUnitMessages.noDetails(scenario.status)))
      }
      for step in steps {
        if step.problems.isEmpty {
          rows.append(row(step.status, scenario.name, step.title, step.location, GitHubMessages.stepFailed))
        }
        for problem in step.problems where problem.severity == .error {
          rows.append(
            row(step.status, scenario.name, step.title, problem.location(in: step), GitHubMessages.message(problem)))
        }
        if let dependants = ReportMessages.skippedDependants(of: step, in: scenario) {
          rows.append(row(.skipped, scenario.name, step.title, step.location, dependants))
        }
      }
    }
    for scenario in report.scenarios {
      for step in scenario.steps {
        for problem in step.problems where problem.severity == .warning {
          rows.append(
            row(
              nil, scenario.name, step.title, problem.location(in: step),
              "warning: " + GitHubMessages.message(problem)))
        }
      }
    }
    return rows
  }

  private func row(
    _ status: Status?, _ scenario: String, _ step: String, _ location: SourceLocation, _ text: String
  )
    -> String
  {
    let cells = [status?.mark ?? "⚠", scenario, step, "\(location)", text].map(\.markdownEscaped)
    return "| " + cells.joined(separator: " | ") + " |"
  }
}

extension String {
  /// Text that Markdown (GFM) shows literally inside a paragraph or a table cell: punctuation
  /// Markdown acts on is backslash-escaped, `&` is an entity, and newlines become `<br>`.
  var markdownEscaped: String {
    var output = ""
    for character in self {
      switch character {
      case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "#", "!": output += "\\\(character)"
      case "&": output += "&amp;"
      case "\n": output += "<br>"
      case "\r": break
      default: output.append(character)
      }
    }
    return output
  }
}
