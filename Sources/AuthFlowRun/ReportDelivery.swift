public import AuthFlowCore
public import AuthFlowReporting
public import AuthFlowResults
import AuthFlowRuntime

/// The end of a run, and of `report merge`: every report written, the notice of where they went,
/// the verdict (with `--fail-on-skip`) and the exit code.
public struct ReportDelivery: Sendable {
  public var reporters: ReporterGroup
  public var secrets: SecretRegistry
  public var failOnSkip: Bool
  public var console: RunConsole
  /// No notice of where the reports went.
  public var quiet: Bool

  public init(
    reporters: ReporterGroup, secrets: SecretRegistry, failOnSkip: Bool, console: RunConsole = .standard,
    quiet: Bool = false
  ) {
    self.reporters = reporters
    self.secrets = secrets
    self.failOnSkip = failOnSkip
    self.console = console
    self.quiet = quiet
  }

  /// Writes every report, prints the notice and (for a run on several tenants, given in
  /// `comparing`) the comparison of their verdicts; returns the exit code: the verdict, or 141
  /// when standard output closed, or 3 for a green run whose report could not be written. A stop
  /// that cut the run short has its own code, which the caller puts over this one.
  public func deliver(_ report: RunReport, comparing tenants: [RunReport] = []) async -> AuthFlowExitCode {
    var written = true
    do {
      try await reporters.finish(report)
    } catch {
      console.error("error: \(error.description)")
      written = false
    }
    if !quiet, let notice = reporters.consoleNotice(for: report.redacted(by: secrets), written: written) {
      // On standard output, unless a report is written to a stream (`json:/dev/stdout`), which
      // it would corrupt.
      if reporters.writesToAStream { StandardStreams.error(notice) } else { StandardStreams.output(notice) }
    }
    if !tenants.isEmpty { printComparison(TenantComparison(runs: tenants.map { $0.redacted(by: secrets) })) }
    let verdict = self.verdict(of: report)
    if StandardStreams.isOutputClosed { return .closedOutput }
    if !written, verdict == .success { return .environment }
    return verdict
  }

  /// The verdict with `--fail-on-skip` applied, saying so when it turned a green run red.
  func verdict(of report: RunReport) -> AuthFlowExitCode {
    let verdict = report.exitCode(failOnSkip: failOnSkip)
    if failOnSkip, verdict != report.exitCode {
      let (notices, total) = report.skips(limit: SkipNotice.listLimit)
      console.error(secrets.scrub(SkipNotice.failOnSkipMessage(notices, total: total)))
    }
    return verdict
  }

  /// The verdicts by tenant, each line scrubbed, written in chunks and followed by a blank line.
  private func printComparison(_ comparison: TenantComparison) {
    var text = ""
    comparison.render { line in
      text += secrets.scrub(line) + "\n"
      if text.utf8.count >= ReportTextSink.chunkSize {
        console.out(String(text.dropLast()))
        text = ""
      }
    }
    console.out(text)
  }
}
