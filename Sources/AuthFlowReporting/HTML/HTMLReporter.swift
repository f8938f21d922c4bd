public import AuthFlowResults

/// One self-contained HTML page a person opens: the summary, filters (status, tag, tenant, text),
/// and per scenario its flow graph drawn as SVG with each step coloured by its result, the story
/// of a failure (the step that broke, expected vs actual, the steps skipped because of it), then
/// each step's problems, HTTP exchanges, decoded token claims and result. See ``HTMLDocument``.
///
/// Offline and inert: no outside fetch (a Content-Security-Policy of `default-src 'none'` allows
/// only its own inline style and script, by hash). Masked like every report: it renders
/// ``RunReport/redacted(by:)`` of the report, tokens expanded first so that their claims are
/// scrubbed too, and escapes afterwards.
public struct HTMLReporter: FileReporter {
  public static let description = ReporterDescription(
    name: "html", takesFile: true,
    summary: "one self-contained HTML page: summary, filters, each flow drawn, steps, exchanges and token claims",
    example: "html:reports/authflow.html")

  /// The page shows each step's result, exchanges and tokens.
  public var needsStepResults: Bool { true }

  public let path: String
  public let context: ReporterContext

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.path = spec.path ?? "authflow.html"
    self.context = context
  }

  /// The page for `report`, redacted, written one scenario at a time.
  public func render(_ report: RunReport, into sink: inout ReportTextSink) {
    HTMLDocument(
      report: report.expandingTokens().redacted(by: context.secrets), revealSecrets: context.secrets.revealSecrets
    ).render(into: &sink)
  }
}
