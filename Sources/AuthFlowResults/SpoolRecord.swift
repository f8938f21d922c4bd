import AuthFlowCore
import Foundation

/// One scenario report as a line of a ``ScenarioSpool``: the JSON report's scenario object in its
/// exact form (``ReportForm/spool``: durations as `[seconds, attoseconds]`, a step's result left
/// out when there is none, the run's tenant not filled in, no derived keys), compact, so that a
/// report read back renders byte for byte as the one written. Its fields are the report's own
/// declaration (``ReportModel/scenario``): no second codec. Step results are plain JSON here: the
/// spool's `prepare` step has already replaced each secret with the mask (or, with
/// `--show-secrets`, with its value).
enum SpoolRecord {
  /// The report as one line of JSON text (no newline inside: strings escape theirs). A value still
  /// wrapped as a secret is written as the mask, whatever `prepare` did.
  static func encode(_ report: ScenarioReport) -> String {
    ReportModel.scenario.value(of: report, .spool).jsonText(revealSecrets: false)
  }

  /// The report of a line written by ``encode(_:)``; nil when the line is not one.
  static func decode(_ bytes: Data) -> ScenarioReport? {
    guard let value = try? Value(json: bytes) else { return nil }
    return try? ReportModel.scenario.decode(ReportReader(value), .spool)
  }
}
