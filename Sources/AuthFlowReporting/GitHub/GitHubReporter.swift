public import AuthFlowResults

/// GitHub Actions annotations on standard output (`::error file=…,line=…,col=…,title=…::…` for
/// failures, `::warning` for environment errors and interruptions), plus a Markdown job summary
/// appended to `$GITHUB_STEP_SUMMARY` when that variable is set.
public struct GitHubReporter: Reporter {
  public static let description = ReporterDescription(
    name: "github", takesFile: false,
    summary: "GitHub Actions annotations, and a job summary when $GITHUB_STEP_SUMMARY is set", example: "github")

  /// The environment variable GitHub sets to the job summary file.
  public static let stepSummaryVariable = "GITHUB_STEP_SUMMARY"

  let context: ReporterContext

  public init(spec: ReporterSpec, context: ReporterContext) {
    self.context = context
  }

  public func finish(_ report: RunReport) async throws {
    let safe = report.redacted(by: context.secrets).mappingTexts(\.terminalSafe)
    await context.output.standardOutput(GitHubAnnotations(report: safe).render())
    if let path = context.environment[Self.stepSummaryVariable], !path.isEmpty {
      try await context.output.append(GitHubStepSummary(report: safe).render(), toFile: path)
    }
  }
}
