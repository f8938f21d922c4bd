import ArgumentParser
import AuthFlowCore
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime

/// The options `run` and `report merge` share: the reports to write, whether secrets show, and
/// whether skips fail. One declaration, so the two commands cannot drift apart.
struct ReportOptions: ParsableArguments {
  @Option(name: .long, help: "console, junit:FILE, json:FILE, html:FILE or github (repeatable; default console).")
  var reporter: [String] = []

  @Flag(
    name: .customLong("show-secrets"),
    help:
      "Show passwords, secrets, codes and tokens in clear (local debugging only; 'report merge' needs it to merge reports written with it)."
  )
  var showSecrets = false

  @Flag(
    name: .customLong("fail-on-skip"),
    help: "Exit 1 when any scenario is skipped, or any step is skipped by its 'if:' (docs/running.md).")
  var failOnSkip = false

  /// The reporters asked for (the console without `--reporter`); a malformed one is a usage error.
  func reporters(context: ReporterContext) throws -> ReporterGroup {
    do {
      return try ReporterRegistry.builtIn.make(arguments: reporter.isEmpty ? ["console"] : reporter, context: context)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
