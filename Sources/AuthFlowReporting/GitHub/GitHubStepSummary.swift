import AuthFlowCore
import AuthFlowResults

/// The Markdown job summary (`$GITHUB_STEP_SUMMARY`) for a redacted report: counts, a table of the
/// problems of failed and errored scenarios and the warnings of any, and the skipped scenarios with their reasons.
///
/// Bounded: at most ``limit`` problem rows and ``limit`` skipped scenarios, then a line saying how
/// many more (GitHub refuses a job summary over 1 MiB; the file reports have every one).
struct GitHubStepSummary {
  var report: RunReport
  /// The most problem rows, and the most skipped scenarios, the summary lists.
  static let limit = 200

  func render() -> String {
    var lines = [
      GitHubMessages.summaryHeading(report),
      "",
      GitHubMessages.summaryRun(tenant: report.tenant.markdownEscaped, duration: DurationText.format(report.duration)),
    ]
    if report.interrupted { lines += ["", GitHubMessages.summaryInterrupted(report)] }
    var rows = Rows(limit: Self.limit)
    problemRows(into: &rows)
    if !rows.lines.isEmpty {
      lines += ["", GitHubMessages.summaryProblemsHeader] + rows.lines
      if rows.omitted > 0 { lines.append(GitHubMessages.summaryMoreRows(rows.omitted)) }
    }
    let skippedCount = report.count(.skipped)
    if skippedCount > 0 {
      lines += ["", GitHubMessages.summarySkipped(skippedCount)]
      var listed = 0
      for scenario in report.scenarios where scenario.status == .skipped {
        lines.append("- \(scenario.name.markdownEscaped): \((scenario.skipReason ?? "skipped").markdownEscaped)")
        listed += 1
        if listed == Self.limit { break }
      }
      if skippedCount > listed { lines.append(GitHubMessages.summaryMoreSkipped(skippedCount - listed)) }
      lines.append("\n</details>")
    }
    return lines.joined(separator: "\n") + "\n\n"
  }

  /// Table rows up to a limit, counting those left out.
  struct Rows {
    var limit: Int
    var lines: [String] = []
    var omitted = 0

    mutating func append(_ row: String) {
      if lines.count < limit { lines.append(row) } else { omitted += 1 }
    }
  }

  private func problemRows(into rows: inout Rows) {
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
          row(scenario.status, scenario.name, "", scenario.location, JUnitMessages.noDetails(scenario)))
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
