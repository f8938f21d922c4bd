import AuthFlowCore
import AuthFlowResults

/// The GitHub reporter's texts.
enum GitHubMessages {
  static let interruptedTitle = "authflow: run interrupted"
  /// `The run was stopped by SIGTERM before every scenario finished; …`.
  static func interrupted(_ report: RunReport) -> String {
    "T" + ReportMessages.stopped(report).dropFirst()
      + "; the scenarios cut short or not run are marked interrupted."
  }
  static let scenarioInterrupted = "the run was interrupted"
  static let stepFailed = "the step did not pass"

  /// `Refresh rotates › step 'reuse'`.
  static func title(_ scenario: ScenarioReport, step: StepReport?) -> String {
    step.map { "\(scenario.name) › \($0.title)" } ?? scenario.name
  }

  /// `warning: Scenario › step 'x'`: the title of a check written `severity: warning`.
  static func warningTitle(_ scenario: ScenarioReport, step: StepReport) -> String {
    "warning: " + title(scenario, step: step)
  }

  /// The problem's message, then its path, matcher, expected and actual on their own lines.
  static func message(_ problem: Problem) -> String {
    ([problem.message] + problem.detailLines.map { "\($0.label): \($0.text)" }).joined(separator: "\n")
  }

  static func summaryHeading(_ report: RunReport) -> String {
    let bad = report.count(.failed) + report.count(.error) + report.count(.interrupted)
    let icon = bad > 0 || report.interrupted ? "❌" : "✅"
    return "## \(icon) authflow: \(report.countsText)"
  }

  /// `tenant` is already Markdown-escaped.
  static func summaryRun(tenant: String, duration: String) -> String {
    "Tenant **\(tenant)** · \(duration)"
  }

  static func summaryInterrupted(_ report: RunReport) -> String {
    "> [!WARNING]\n> **INTERRUPTED**: \(ReportMessages.stopped(report))."
  }
  static let summaryProblemsHeader = "| | Scenario | Step | Location | Problem |\n|---|---|---|---|---|"
  static func summarySkipped(_ count: Int) -> String { "<details><summary>Skipped (\(count))</summary>\n" }

  /// Under a problem table cut at ``GitHubStepSummary/limit`` rows.
  static func summaryMoreRows(_ count: Int) -> String {
    "\n… and \(count) more \(Plural.noun(count, "row")) (the file reports have every problem)"
  }

  /// Under a skipped list cut at ``GitHubStepSummary/limit`` scenarios.
  static func summaryMoreSkipped(_ count: Int) -> String {
    "- … and \(count) more (the file reports have every one)"
  }
}
