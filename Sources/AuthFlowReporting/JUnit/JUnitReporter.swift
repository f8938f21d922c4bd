public import AuthFlowResults

/// JUnit XML for CI test views (Jenkins, GitLab, GitHub JUnit actions); see ``JUnitDocument`` for
/// the layout.
public struct JUnitReporter: FileReporter {
  public static let description = ReporterDescription(
    name: "junit", takesFile: true, summary: "JUnit XML, one test suite per scenario file",
    example: "junit:reports/authflow.xml")

  public let path: String
  public let context: ReporterContext

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.path = spec.path ?? "authflow-junit.xml"
    self.context = context
  }

  /// The XML for `report`, redacted, written one test suite at a time.
  public func render(_ report: RunReport, into sink: inout ReportTextSink) {
    JUnitDocument(report: report.redacted(by: context.secrets)).render(into: &sink)
  }
}
