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
    // Printed as they are made, in chunks: a long run's annotations are never one string.
    let annotations = GitHubAnnotations(report: safe)
    var text = ""
    for pass in GitHubAnnotations.Pass.allCases {
      for scenario in safe.scenarios {
        for line in annotations.lines(of: scenario, in: pass) { text += line + "\n" }
        if text.utf8.count >= ReportTextSink.chunkSize {
          await context.output.standardOutput(text)
          text = ""
        }
      }
    }
    for line in annotations.closingLines() { text += line + "\n" }
    if !text.isEmpty { await context.output.standardOutput(text) }
    if let path = context.environment[Self.stepSummaryVariable], !path.isEmpty {
      try await context.output.append(GitHubStepSummary(report: safe).render(), toFile: path)
    }
  }
}
