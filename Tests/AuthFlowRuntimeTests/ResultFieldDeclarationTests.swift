import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The result fields an action declares (which `validate` checks `steps.<id>.FIELD` and `expect`
/// keys against) cover every member its results really have: each action's example and every
/// bundled scenario runs on the mock, and each step's result members must be declared.
@Suite("Declared result fields cover the real results")
struct ResultFieldDeclarationTests {
  static func undeclaredMembers(_ report: RunReport) -> [String] {
    var undeclared: [String] = []
    for scenario in report.scenarios {
      for step in scenario.steps {
        guard let members = step.result?.objectValue,
          let fields = ActionRegistry.action(named: step.action)?.signature.resultFieldNames
        else { continue }
        for name in members.keys.sorted() where !fields.contains(name) {
          undeclared.append("\(step.action): '\(name)' (\(scenario.name) › \(step.id))")
        }
      }
    }
    return undeclared
  }

  @Test("Every action's example result is declared", arguments: ActionRegistry.all.map { $0.signature.name })
  func exampleResultsAreDeclared(_ name: String) async throws {
    let action = try #require(ActionRegistry.action(named: name))
    let report = try await MockHarness.run([action.example])
    #expect(Self.undeclaredMembers(report).isEmpty, "\(Self.undeclaredMembers(report))")
  }

  @Test("Every bundled scenario's step results are declared")
  func bundledResultsAreDeclared() async throws {
    let loaded = await Pipeline.load(BundledScenarioTests.scenarioFiles)
    let instances = loaded.scenarios.filter { $0.tenant == nil }.flatMap(\.instances)
    let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry())
    #expect(Self.undeclaredMembers(report).isEmpty, "\(Self.undeclaredMembers(report))")
  }
}
