import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// Every action carries an example scenario; each one runs here against the embedded mock tenant,
/// so the reference docs (generated from the same examples) cannot drift from the code.
@Suite("Action examples run against the embedded mock")
struct ActionExampleTests {
  static let actionNames = ActionRegistry.all.map { $0.signature.name }

  @Test("The registry is sorted and names are unique")
  func registryIsSorted() {
    #expect(Self.actionNames == Self.actionNames.sorted())
    #expect(Set(Self.actionNames).count == Self.actionNames.count)
  }

  @Test("Every action documents itself", arguments: actionNames)
  func documented(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    #expect(!action.signature.summary.isEmpty)
    #expect(!action.documentation.isEmpty)
    #expect(action.example.contains("\(name):"), "the example of '\(name)' must use it")
  }

  @Test("Every action's example passes", arguments: actionNames)
  func examplePasses(_ name: String) async throws {
    let action = try #require(ActionRegistry.action(named: name))
    let report = try await MockHarness.run(action.example)
    #expect(report.status == .passed, "\(name): \(report.problemSummary)")
  }
}
