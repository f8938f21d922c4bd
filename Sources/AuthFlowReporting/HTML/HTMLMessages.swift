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

  static func interrupted(_ report: RunReport) -> String {
    "INTERRUPTED: \(ReportMessages.stopped(report)); those cut short or never started are marked interrupted"
  }
  static let noScenarios = "No scenario was run."

  /// `oidcc-basic-certification-test-plan: 30 passed, 4 warning, 2 review, 2 skipped`.
  static func planHeading(_ table: PlanTable) -> String {
    let counts = table.counts
    let parts = PlanTable.Result.allCases.compactMap { result in counts[result].map { "\($0) \(result.rawValue)" } }
    return "\(table.plan): " + parts.joined(separator: ", ")
  }

  /// Under a scenario that never started: `Not started: none of its 4 steps ran: …`.
  static func notStarted(_ planned: String) -> String { "Not started: \(planned)." }

  /// The summary's note on what the page left out (nil when nothing was).
  static func leftOut(_ leftOut: HTMLDetailBudget.LeftOut, limit: Int) -> String? {
    guard !leftOut.isEmpty else { return nil }
    var parts: [String] = []
    if leftOut.summarisedExchanges > 0 {
      parts.append(
        "the headers and bodies of \(count(leftOut.summarisedExchanges, "exchange")) of passing scenarios (their request and status lines are shown)"
      )
    }
    if leftOut.exchanges > 0 || leftOut.results > 0 {
      let items = [
        leftOut.exchanges > 0 ? count(leftOut.exchanges, "exchange") : nil,
        leftOut.results > 0 ? count(leftOut.results, "step result") : nil,
      ].compactMap { $0 }.joined(separator: " and ")
      parts.append("\(items) past the page's budget of \(mebibytes(limit)) for exchanges and results")
    }
    return "Left out of this page to keep it small: " + parts.joined(separator: "; ")
      + ". The JSON report (--reporter json:FILE) has them all."
  }

  /// On a step: `2 exchanges and the result left out: …`.
  static func stepLeftOut(exchanges: Int, result: Bool, limit: Int) -> String {
    let items = [exchanges > 0 ? count(exchanges, "exchange") : nil, result ? "the result" : nil]
      .compactMap { $0 }.joined(separator: " and ")
    return
      "\(items) left out: the page's budget of \(mebibytes(limit)) for exchanges and results was spent (the JSON report has them)."
  }

  private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

  private static func mebibytes(_ bytes: Int) -> String {
    bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MiB" : "\(bytes / 1024) KiB"
  }
  static let footer =
    "Written by authflow. Secrets (passwords, client secrets, codes, tokens) are shown as *** unless the run had --show-secrets."
}
