import AuthFlowCore
import AuthFlowResults

/// The console's texts.
enum ConsoleMessages {
  static func runStarted(_ run: RunStart) -> String {
    let noun = run.scenarioCount == 1 ? "scenario" : "scenarios"
    return "Running \(run.scenarioCount) \(noun) against tenant '\(run.tenant)'"
  }

  static let failures = "Failures"
  static let errors = "Errors (environment)"
  static let skipped = "Skipped"
  static let warnings = "Warnings (severity: warning; they do not fail the run)"
  static let interruptedHeading = "Interrupted"
  static let noDetails = "no details were recorded"

  static func attempts(_ count: Int) -> String { count > 1 ? " after \(count) attempts" : "" }

  static func stepStatus(_ step: StepReport) -> String {
    let verb = step.status == .error ? "hit an environment error" : "failed"
    return "\(step.title) \(verb)\(attempts(step.attempts))"
  }

  static func stepWarned(_ step: StepReport, count: Int) -> String {
    "\(step.title): \(count) warning\(count == 1 ? "" : "s")"
  }

  static func skipped(_ reason: String?) -> String { reason.map { "skipped: \($0)" } ?? "skipped" }

  static func interrupted(_ reason: String?) -> String { reason ?? "the run was interrupted" }

  /// `INTERRUPTED: the run was stopped by SIGTERM before every scenario finished; …`.
  static func interrupted(_ report: RunReport) -> String {
    "INTERRUPTED: \(ReportMessages.stopped(report)); those cut short or never started are marked interrupted"
  }

  /// The line under a summary section cut at ``ConsoleSummary/limit`` scenarios.
  static func more(_ count: Int, status: Status?) -> String {
    let noun = Plural.noun(count, "scenario")
    let kind =
      switch status {
      case .failed?: "failed \(noun)"
      case .error?: "\(noun) with an environment error"
      case .skipped?: "skipped \(noun)"
      case .interrupted?: "interrupted \(noun)"
      case .passed?: noun
      case nil: "\(noun) with warnings"
      }
    return "… and \(count) more \(kind) (not listed here: the file reports have every one)"
  }

  static func totals(_ report: RunReport) -> String {
    "\(report.countsText) in \(DurationText.format(report.duration))"
  }
}
