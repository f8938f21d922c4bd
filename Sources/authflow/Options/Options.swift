import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// Writes diagnostics to standard error with snippets, and returns the exit code for them.
enum DiagnosticOutput {
  static func print(_ diagnostics: [Diagnostic], sources: [String: String], revealSecrets: Bool = false) {
    guard !diagnostics.isEmpty else { return }
    let colors = isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    let renderer = DiagnosticRenderer(colors: colors, revealSecrets: revealSecrets) { path in
      sources[path] ?? SourceText.read(path)
    }
    Console.error(renderer.render(diagnostics.sortedByLocation))
    let errors = diagnostics.count { $0.isError }
    if errors > 0 {
      Console.error("\(errors) error\(errors == 1 ? "" : "s") found.")
    }
  }
}

/// Standard output and standard error, one line at a time. A closed output never traps: see
/// ``StandardStreams``.
enum Console {
  static func out(_ text: String) {
    StandardStreams.output(text + "\n")
  }

  static func error(_ text: String) {
    StandardStreams.error(text + "\n")
  }
}
