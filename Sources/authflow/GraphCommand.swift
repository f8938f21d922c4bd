import ArgumentParser
import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario

/// `authflow graph PATH… --format mermaid|dot`: print the flow graph of each scenario.
struct GraphCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "graph", abstract: "Print each scenario's flow graph as Mermaid or Graphviz dot.",
    discussion: """
      One file prints its graph alone. Several files, or a directory, print every scenario's graph \
      in file order, each after a comment naming its file and title (%% in Mermaid, // in dot), \
      separated by a blank line; Graphviz renders every graph of such a file (dot -Tsvg -O).
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot
  }

  @Argument(help: "Scenario files or directories.")
  var paths: [String] = []

  @Option(name: .long, help: "mermaid (default) or dot.")
  var format: Format = .mermaid

  func validate() throws {
    if paths.isEmpty {
      throw ValidationError("give a scenario file or directory, e.g. authflow graph scenarios/login.yaml")
    }
  }

  func run() async throws {
    // source → parsed → validated, each scenario with its flow graph
    let loaded = await ScenarioSource(paths: paths).scenarios()
    DiagnosticOutput.print(loaded.diagnostics, sources: loaded.sources)
    guard !loaded.diagnostics.hasErrors else { throw ExitCode(AuthFlowExitCode.invalidInput.rawValue) }
    guard !loaded.validated.isEmpty else {
      Console.error("error: no scenario files in \(paths.joined(separator: ", ")) (scenarios are .yaml or .yml files)")
      throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
    }
    Console.out(Self.render(loaded.validated, format: format))
  }

  /// One graph alone; several each after a comment naming its file and title.
  static func render(_ scenarios: [ValidatedScenario], format: Format) -> String {
    func draw(_ validated: ValidatedScenario) -> String {
      format == .mermaid ? validated.graph.mermaid : validated.graph.dot
    }
    guard scenarios.count > 1 else { return scenarios.first.map(draw) ?? "" }
    let comment = format == .mermaid ? "%%" : "//"
    return scenarios.map { validated in
      let title = validated.scenario.title.value.replacingOccurrences(of: "\n", with: " ")
      return "\(comment) \(validated.scenario.file): \(title)\n" + draw(validated)
    }.joined(separator: "\n")
  }
}
