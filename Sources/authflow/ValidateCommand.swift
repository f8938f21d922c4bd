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
    let paths = self.paths.isEmpty ? ["scenarios"] : self.paths
    let loaded = await Pipeline.load(paths)
    let project = Pipeline.loadProject(explicit: config, near: paths)
    let diagnostics =
      loaded.diagnostics + project.diagnostics
      + Pipeline.check(loaded.scenarios, against: project.config, embedded: MockTenantHost())
    DiagnosticOutput.print(diagnostics, sources: loaded.sources.merging(project.sources) { first, _ in first })
    if diagnostics.hasErrors { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }
    let instances = loaded.scenarios.reduce(0) { $0 + $1.instances.count }
    Console.out(
      "\(loaded.scenarios.count) scenario file\(loaded.scenarios.count == 1 ? "" : "s") valid (\(instances) instance\(instances == 1 ? "" : "s"))."
    )
  }
}
