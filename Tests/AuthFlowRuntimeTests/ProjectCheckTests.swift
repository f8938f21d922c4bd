import AuthFlowCore
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// Scenarios are checked against `authflow.yaml` by `validate` and `run`: the bundled ones are
/// clean, a typo is not, and every capability the runtime knows is in the documented vocabulary.
@Suite struct ProjectCheckTests {
  @Test func everyRuntimeCapabilityIsInTheVocabulary() {
    #expect(Capability.mock.subtracting(CapabilityVocabulary.builtInNames).isEmpty)
    #expect(CapabilityVocabulary.builtIn.map(\.name) == CapabilityVocabulary.builtIn.map(\.name).sorted())
  }

  /// The vocabulary's one page is the generated docs/capabilities.md (VocabularyDocsTests keeps it
  /// current); docs/tenants.md links to it and keeps no hand-written copy of its rows.
  @Test func theVocabularyIsDocumentedOnceInTheGeneratedPage() throws {
    let docs = BundledScenarioTests.root.appendingPathComponent("docs")
    let tenants = try String(contentsOf: docs.appendingPathComponent("tenants.md"), encoding: .utf8)
    let capabilities = try String(contentsOf: docs.appendingPathComponent("capabilities.md"), encoding: .utf8)
    #expect(tenants.contains("[Capabilities](capabilities.md)"))
    for (name, meaning) in CapabilityVocabulary.builtIn {
      #expect(capabilities.contains("| `\(name)` | \(meaning) |"), "docs/capabilities.md does not list '\(name)'")
      #expect(!tenants.contains("| `\(name)` | \(meaning) |"), "docs/tenants.md keeps a copy of the row of '\(name)'")
    }
  }

  @Test func bundledScenariosAreCleanAgainstTheBundledProject() async throws {
    let loaded = await Pipeline.load(BundledScenarioTests.scenarioFiles)
    let file = BundledScenarioTests.root.appendingPathComponent("authflow.yaml").path
    let project = Pipeline.loadProject(explicit: file, near: [])
    #expect(!project.diagnostics.hasErrors)
    let found = Pipeline.check(loaded.scenarios, against: project.config, embedded: MockTenantHost())
    #expect(found.isEmpty, "\(found.map(\.description))")
  }

  @Test func mockFixtureClientsCountAndTyposDoNot() throws {
    let scenario = try ScenarioHarness.parse("scenario: x\nclient: nativ\nsteps:\n  - wait: 1ms\n")
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost())
    #expect(found.count == 1)
    #expect(found.first?.message.hasPrefix("no tenant defines a client profile 'nativ'") == true)
    #expect(found.first?.hint == "did you mean 'native'?")
    let fine = try ScenarioHarness.parse("scenario: x\nclient: native\nsteps:\n  - wait: 1ms\n")
    #expect(Pipeline.check([fine], against: .embedded, embedded: MockTenantHost()).isEmpty)
  }

  @Test func aStepsClientIsCheckedLikeTheScenarios() throws {
    let scenario = try ScenarioHarness.parse(
      "scenario: x\nsteps:\n  - wait: 1ms\n    client: wbe\ncleanup:\n  - wait: 1ms\n    client: web\n")
    let found = Pipeline.check([scenario], against: .embedded, embedded: MockTenantHost())
    #expect(found.map(\.message).count == 1, "\(found.map(\.message))")
    #expect(found.first?.message.hasPrefix("no tenant defines a client profile 'wbe'") == true)
    #expect(found.first?.hint == "did you mean 'web'?")
    #expect(found.first?.location?.line == 4)
  }
}
