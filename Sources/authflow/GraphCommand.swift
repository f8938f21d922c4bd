import ArgumentParser
import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario

/// `authflow graph FILE --format mermaid|dot`: print the flow graph.
struct GraphCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph", abstract: "Print a scenario's flow graph as Mermaid or Graphviz dot.")

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot
  }

  @Argument(help: "The scenario file.")
  var file: String

  @Option(name: .long, help: "mermaid (default) or dot.")
  var format: Format = .mermaid

  func run() async throws {
    let loaded = await Pipeline.load([file])
    DiagnosticOutput.print(loaded.diagnostics, sources: loaded.sources)
    guard !loaded.diagnostics.hasErrors, let scenario = loaded.scenarios.first else {
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    let graph = FlowGraph(scenario)
    Console.out(format == .mermaid ? graph.mermaid : graph.dot)
  }
}
