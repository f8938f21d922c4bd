import ArgumentParser
import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow schema`: print (or write) the JSON Schemas generated from the action registry.
struct SchemaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print the JSON Schema of scenario files (generated from the actions) or of authflow.yaml.")

  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case scenario, authflow
  }

  @Argument(help: "scenario (default) or authflow.")
  var kind: Kind = .scenario

  @Option(name: .long, help: "Write to this file instead of standard output.")
  var output: String?

  func run() async throws {
    let text = kind == .scenario ? ScenarioSchema.generate(catalog: ActionRegistry.catalog) : ProjectSchema.generate()
    if let output {
      try text.write(toFile: output, atomically: true, encoding: .utf8)
    } else {
      Console.out(text)
    }
  }
}
