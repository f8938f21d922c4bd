import AuthFlowCore
import AuthFlowResults

/// The HTML report's texts.
enum HTMLMessages {
  static func pageTitle(_ report: RunReport) -> String {
    let bad = report.count(.failed) + report.count(.error) + report.count(.interrupted)
    return "\(bad > 0 || report.interrupted ? "✗" : "✓") authflow · \(report.countsText)"
  }

  static func heading(_ report: RunReport) -> String { "authflow: \(report.countsText)" }

  static func runLine(_ report: RunReport) -> String {
    "Tenant \(report.tenant) · started \(Timestamp.iso8601(report.startedAt)) · \(DurationText.format(report.duration))"
  }

  static let interrupted =
    "INTERRUPTED: the run was stopped before every scenario finished; those cut short or never started are marked interrupted"
  static let noScenarios = "No scenario was run."
  static let footer =
    "Written by authflow. Secrets (passwords, client secrets, codes, tokens) are shown as *** unless the run had --show-secrets."
}
