public import AuthFlowRuntime

/// JUnit XML for CI test views (Jenkins, GitLab, GitHub JUnit actions); see ``JUnitDocument`` for
/// the layout.
public struct JUnitReporter: Reporter {
  public static let description = ReporterDescription(
    name: "junit", takesFile: true, summary: "JUnit XML, one test suite per scenario file",
    example: "junit:reports/authflow.xml")

  let path: String
  let context: ReporterContext

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.path = spec.path ?? "authflow-junit.xml"
    self.context = context
  }

  public var reportPath: String? { path }

  public func finish(_ report: RunReport) async throws {
    try await context.output.write(render(report), toFile: path)
  }

  /// The XML for `report`, redacted.
  public func render(_ report: RunReport) -> String {
    JUnitDocument(report: report.redacted(by: context.secrets)).render()
  }
}
