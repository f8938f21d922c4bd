/// Why JSON reports could not be merged. Its description is the message.
public struct JSONReportError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  static let nothingToMerge = JSONReportError(description: "no JSON reports to merge")

  static func notAReport(index: Int) -> JSONReportError {
    JSONReportError(description: "report #\(index + 1) is not an authflow JSON report")
  }

  static func unsupportedVersion(index: Int, found: Int?) -> JSONReportError {
    let version = found.map(String.init) ?? "none"
    return JSONReportError(
      description: "report #\(index + 1) has version \(version); this authflow reads version \(JSONReport.version)")
  }

  static func tenantMismatch(_ first: String, _ other: String) -> JSONReportError {
    JSONReportError(description: "reports from different tenants ('\(first)' and '\(other)') cannot be merged")
  }
}
