import AuthFlowCore
public import AuthFlowResults

extension ReporterGroup {
  /// What a run whose reports all go to files still says on the console, as Playwright's HTML
  /// reporter does: the totals line and where each report was written (`html report: r.html`).
  /// Nil when the console reporter is among them: it says all of that and more.
  ///
  /// `written` is false when a report could not be written: the error was printed, and the notice
  /// names no file.
  public func consoleNotice(for report: RunReport, written: Bool = true) -> String? {
    guard !reporters.contains(where: { $0 is ConsoleReporter }) else { return nil }
    var lines = [ConsoleMessages.totals(report)]
    if written {
      lines += reporters.compactMap { reporter in
        reporter.reportPath.map { ReporterMessages.written(type(of: reporter).description.name, path: $0) }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// True when a report is written to a stream (`json:/dev/stdout`, a pipe): a notice for the
  /// console then goes to standard error, not into that stream.
  public var writesToAStream: Bool {
    fileTargets.contains { AtomicFile.isStream($0.path) }
  }
}

/// The messages of the reporters as a group.
enum ReporterMessages {
  static func written(_ reporter: String, path: String) -> String {
    "\(reporter) report: \(path)"
  }
}
