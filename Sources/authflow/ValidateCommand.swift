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
