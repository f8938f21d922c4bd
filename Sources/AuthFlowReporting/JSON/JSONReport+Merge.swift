import AuthFlowCore
import AuthFlowRuntime
public import Foundation

extension JSONReport {
  /// Merges the JSON reports of the shards of one run into one report of the same structure.
  ///
  /// Scenarios are concatenated and sorted by file, line, then name (so the result does not depend
  /// on the order the shards are given); `started_at` is the earliest start, `duration_ms` spans
  /// from it to the latest end, `interrupted` is true when any shard was, and counts are
  /// recomputed. Every report must be of this format and version and name the same tenant.
  public static func merge(_ reports: [Data]) throws(JSONReportError) -> Data {
    guard !reports.isEmpty else { throw .nothingToMerge }
    var tenant: String?
    var start: Date?
    var end: Date?
    var interrupted = false
    var scenarios: [Value] = []
    for (index, data) in reports.enumerated() {
      guard let report = try? Value(json: data), let run = report.member("run"),
        report.member("format")?.stringValue == format
      else { throw .notAReport(index: index) }
      guard report.member("version")?.intValue == version else {
        throw .unsupportedVersion(index: index, found: report.member("version")?.intValue)
      }
      guard let shardTenant = run.member("tenant")?.stringValue,
        let startedText = run.member("started_at")?.stringValue, let started = Timestamp.parse(startedText),
        let duration = run.member("duration_ms")?.intValue, let shardScenarios = report.member("scenarios")?.arrayValue
      else { throw .notAReport(index: index) }
      if let tenant, tenant != shardTenant { throw .tenantMismatch(tenant, shardTenant) }
      tenant = shardTenant
      let finished = started.addingTimeInterval(Double(duration) / 1000)
      start = min(start ?? started, started)
      end = max(end ?? finished, finished)
      interrupted = interrupted || run.member("interrupted")?.boolValue == true
      scenarios += shardScenarios
    }
    let startedAt = start ?? Date(timeIntervalSince1970: 0)
    let sorted = scenarios.sorted(by: precedes)
    let statuses = sorted.compactMap { $0.member("status")?.stringValue.flatMap(Status.init(rawValue:)) }
    let merged: Value = .object([
      "format": .string(format),
      "version": .int(version),
      "run": .object([
        "tenant": .string(tenant ?? ""),
        "started_at": .string(Timestamp.iso8601(startedAt)),
        "duration_ms": .int(Int(((end ?? startedAt).timeIntervalSince(startedAt) * 1000).rounded())),
        "interrupted": .bool(interrupted),
        "counts": counts(statuses, warnings: sorted.reduce(0) { $0 + ($1.member("warnings")?.intValue ?? 0) }),
      ]),
      "scenarios": .array(sorted),
    ])
    return Data(text(merged, revealSecrets: true).utf8)
  }

  private static func precedes(_ lhs: Value, _ rhs: Value) -> Bool {
    func key(_ value: Value) -> (String, Int, String) {
      (
        value.member("file")?.stringValue ?? "", value.member("line")?.intValue ?? 0,
        value.member("name")?.stringValue ?? ""
      )
    }
    return key(lhs) < key(rhs)
  }
}
