public import AuthFlowResults

/// The JSON report file; see ``JSONReport`` for the structure.
public struct JSONReporter: FileReporter {
  public static let description = ReporterDescription(
    name: "json", takesFile: true, summary: "a JSON report (stable structure, sorted keys, mergeable across shards)",
    example: "json:reports/authflow.json")

  /// The JSON report carries every step's result.
  public var needsStepResults: Bool { true }

  public let path: String
  public let context: ReporterContext

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.path = spec.path ?? "authflow.json"
    self.context = context
  }

  /// The JSON text for `report`, redacted, written one scenario at a time.
  public func render(_ report: RunReport, into sink: inout ReportTextSink) {
    let reveal = context.secrets.revealSecrets
    JSONReport.write(
      report.expandingTokens().redacted(by: context.secrets), secretsShown: reveal, revealSecrets: reveal, into: &sink)
  }
}
