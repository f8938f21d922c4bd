import AuthFlowCore
import AuthFlowRun
import AuthFlowScenario
import Foundation

/// Writes diagnostics to standard error with snippets (``RunConsole/print(_:sources:revealSecrets:)``).
enum DiagnosticOutput {
  static func print(_ diagnostics: [Diagnostic], sources: [String: String], revealSecrets: Bool = false) {
    RunConsole.standard.print(diagnostics, sources: sources, revealSecrets: revealSecrets)
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
