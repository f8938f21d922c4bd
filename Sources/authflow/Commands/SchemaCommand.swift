import ArgumentParser
import AuthFlowCore
import AuthFlowMockTenant
import AuthFlowReporting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation

/// `authflow schema`: print (or write) the JSON Schemas generated from the code — scenario files
/// (from the action registry), `authflow.yaml`, mock fixtures (from the fixture loader), the JSON
/// report — or the mock tenant's OpenAPI document (the copy the mock serves at `/__mock/openapi.json`).
struct SchemaCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract:
      "Print the JSON Schema of scenario files (generated from the actions), of authflow.yaml, of mock tenant fixtures or of the JSON report, or the mock tenant's OpenAPI document."
  )

  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case scenario, authflow, tenant, report, openapi
  }

  @Argument(
    help:
      "scenario (default), authflow, tenant (mock fixtures), report (the JSON report, --reporter json:FILE), or openapi (the mock tenant's OpenAPI 3.1 document)."
  )
  var kind: Kind = .scenario

  @Option(name: .long, help: "Write to this file instead of standard output.")
  var output: String?

  func run() async throws {
    let text: String
    switch kind {
    case .scenario: text = ScenarioSchema.generate(catalog: ActionRegistry.catalog)
    case .authflow: text = ProjectSchema.generate()
    case .tenant: text = FixtureSchema.generate()
    case .report: text = JSONReportSchema.generate()
    case .openapi:
      guard let document = MockOpenAPIDocument.text else {
        throw ValidationError("the mock's OpenAPI document is not bundled with this build")
      }
      text = document
    }
    if let output {
      // Atomically, through a symbolic link, or to a stream (`/dev/stdout`), as reports are.
      do {
        try AtomicFile.write(text, to: output)
      } catch {
        Console.error("error: cannot write the schema: \(error.description)")
        throw ExitCode(AuthFlowExitCode.invalidInput.rawValue)
      }
    } else {
      Console.out(text)
    }
  }
}
