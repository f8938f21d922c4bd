import AuthFlowCore
public import AuthFlowResults
import AuthFlowScenario
public import Foundation

extension JSONReport {
  /// A JSON report read back: the run, and what only the file says about it.
  public struct Decoded: Sendable {
    public var report: RunReport
    /// True when the run that wrote it had `--show-secrets` (`run.secrets_shown`).
    public var secretsShown: Bool
  }

  /// Reads a JSON report of this format and a version it reads (``readableVersions``) back into a
  /// run report, so that any reporter can render it (`authflow report merge`). Strict: every key
  /// the version has must be there with its type; the error names the JSON path. `name` (the
  /// file) prefixes every message. A version 2 report has no stop cause, and its scenarios started
  /// when they list steps (version 2 listed none for a scenario that never started). The keys are
  /// the ones the report's declaration reads (``run``, ``ReportModel/scenario``).
  public static func decode(_ data: Data, name: String) throws(JSONReportError) -> Decoded {
    guard let root = try? Value(json: data), case .object = root, root.member("format")?.stringValue == format else {
      throw .notAReport(name)
    }
    guard let found = root.member("version")?.intValue, readableVersions.contains(found) else {
      throw .unsupportedVersion(name, found: root.member("version")?.intValue)
    }
    let reader = ReportReader(root)
    do throws(ReportDecodingError) {
      var coding = ReportCoding(form: .report, version: found)
      var decoded = try reader.read("run") { run throws(ReportDecodingError) in try Self.run.decode(run, coding) }
      coding.runTenant = decoded.report.tenant
      decoded.report.scenarios = ScenarioReports(
        try reader.read("scenarios") { scenarios throws(ReportDecodingError) in
          try scenarios.array { scenario throws(ReportDecodingError) in
            try ReportModel.scenario.decode(scenario, coding)
          }
        })
      return decoded
    } catch {
      throw .malformed(name, path: error.path(), expected: error.expected)
    }
  }

  /// The counts a shard's `selected` may have: a run of more instances than this is not one.
  static let selectedInstances = 0...Int(UInt32.max)
}
