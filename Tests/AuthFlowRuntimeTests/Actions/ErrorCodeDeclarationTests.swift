import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// The error codes an action declares (which docs/errors.md and its page list) cover the codes its
/// steps really produce: every example, failing example and bundled scenario runs on the mock,
/// and each `error.code` a step's result holds must be one its action declares.
@Suite("Declared error codes cover the real ones")
struct ErrorCodeDeclarationTests {
  static func undeclaredCodes(_ report: RunReport) -> [String] {
    var undeclared: [String] = []
    for scenario in report.scenarios {
      for step in scenario.steps {
        guard let code = step.result?.lookup(path: ["error", "code"])?.stringValue,
          let action = ActionRegistry.action(named: step.action)
        else { continue }
        if !action.traits.errors.contains(where: { $0.code == code }) {
          undeclared.append("\(step.action): '\(code)' (\(scenario.name) › \(step.id))")
        }
      }
    }
    return undeclared
  }

  @Test(
    "Every code of an action's example and failing example is declared",
    arguments: ActionSelfDescriptionTests.actionNames)
  func exampleCodesAreDeclared(_ name: String) async throws {
    let action = try #require(ActionRegistry.action(named: name))
    for scenario in [action.example, action.failingExample.scenario] {
      let report = try await MockHarness.run([scenario])
      #expect(report.scenarios.count == 1)
      #expect(Self.undeclaredCodes(report).isEmpty, "\(Self.undeclaredCodes(report))")
    }
  }

  @Test("Every code of the bundled scenarios is declared")
  func bundledCodesAreDeclared() async throws {
    let loaded = await Pipeline.load(BundledScenarioTests.scenarioFiles)
    let instances = loaded.scenarios.filter { $0.tenant == nil }.flatMap(\.instances)
    let report = try await MockHarness.run(instances: instances, secrets: SecretRegistry())
    let codes = report.scenarios.flatMap(\.steps).compactMap { $0.result?.lookup(path: ["error", "code"]) }
    #expect(!codes.isEmpty, "the bundled scenarios check protocol errors")
    #expect(Self.undeclaredCodes(report).isEmpty, "\(Self.undeclaredCodes(report))")
  }
}
