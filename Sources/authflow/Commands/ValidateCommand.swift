import ArgumentParser
import AuthFlowCore
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario

/// `authflow validate [PATH…]`: parse, type-check and graph-check without running.
struct ValidateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check scenarios (and authflow.yaml) without running them; every problem as file:line:col.")

  @Argument(help: "Scenario files or directories (default: scenarios/).")
  var paths: [String] = []

  @Option(name: .long, help: "The tenant profiles file (default: authflow.yaml beside the scenarios).")
  var config: String?

  func run() async throws {
    try await Self.validate(paths: paths, config: config)
  }

  /// The command itself, for ``run()`` and for ``plainPaths(_:)``.
  static func validate(paths: [String], config: String?) async throws {
    // source → parsed → validated, keeping of each file only its plan entries, as `run` does: the
    // same diagnostics, without every file's tree and text held to the end and freed at exit.
    let suite = await ScenarioSource(paths: paths, configFile: config).planned(embedded: MockTenantHost())
    DiagnosticOutput.print(suite.diagnostics, sources: suite.sources)
    if !suite.isValid { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }
    // A valid scenario has at least one instance, its first at index 0.
    let files = suite.planned.count { $0.index == 0 }
    let instances = suite.planned.count
    Console.out(
      "\(files) scenario file\(files == 1 ? "" : "s") valid (\(instances) instance\(instances == 1 ? "" : "s"))."
    )
  }
}

extension ValidateCommand {
  /// The paths of `authflow validate PATH…` when the arguments after `validate` are all paths —
  /// none empty or starting with `-` (no option, no `--`) — which ArgumentParser would parse to
  /// exactly these paths; nil for anything else, which goes through ArgumentParser. Parsing them
  /// here skips ArgumentParser's reflection over the command types (its check for
  /// `--generate-completion-script` alone builds two more commands' argument sets), a fifth of a
  /// cold `validate` of one file (docs/benchmarks.md).
  static func plainPaths(_ arguments: [String]) -> [String]? {
    guard arguments.first == configuration.commandName else { return nil }
    let paths = Array(arguments.dropFirst())
    guard paths.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") }) else { return nil }
    return paths
  }
}
