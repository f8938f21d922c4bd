import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// Every action has a failing path that runs: its `failingExample` scenario runs against the
/// embedded mock, and its step `fails` must fail exactly as declared — a protocol error with a
/// code the action lists, an environment error, a flow or a parameter failure. An action added
/// without one does not compile; one whose failure drifts from its declaration fails here.
@Suite("Every action's failing example fails as declared")
struct FailingExampleTests {
  @Test("The failing example is declared by the action's traits", arguments: ActionSelfDescriptionTests.actionNames)
  func declared(_ name: String) throws {
    let action = try #require(ActionRegistry.action(named: name))
    let example = action.failingExample
    #expect(action.traits.failures.contains(example.failure), "\(name): \(example.failure) is not a declared failure")
    #expect(example.scenario.contains("\(name):"), "the failing example of '\(name)' must use it")
    #expect(example.scenario.contains("id: \(FailingExample.stepID)"))
    if example.failure == .protocolError {
      let code = try #require(example.code, "\(name): a protocol error names its code")
      #expect(action.traits.errors.contains(code), "\(name): '\(code.code)' is not in its declared errors")
    } else {
      #expect(example.code == nil)
    }
  }

  @Test("The failing example fails as declared", arguments: ActionSelfDescriptionTests.actionNames)
  func fails(_ name: String) async throws {
    let action = try #require(ActionRegistry.action(named: name))
    let example = action.failingExample
    let report = try await MockHarness.run(example.scenario)
    let step = try #require(
      report.steps.first { $0.id == FailingExample.stepID }, "\(name): no step '\(FailingExample.stepID)'")
    #expect(step.action == name)
    let kinds = step.problems.map(\.kind)
    let summary = step.problems.map(\.message)
    switch example.failure {
    case .protocolError:
      #expect(step.status == .failed, "\(name): \(step.status) \(summary)")
      #expect(kinds.contains(.unexpectedError), "\(name): \(summary)")
      #expect(step.result?.lookup(path: ["error", "code"])?.stringValue == example.code?.code, "\(name): \(summary)")
    case .environment:
      #expect(step.status == .error, "\(name): \(step.status) \(summary)")
      #expect(kinds.contains(.environment), "\(name): \(summary)")
    case .flow, .invalidParameter:
      #expect(step.status == .failed, "\(name): \(step.status) \(summary)")
      #expect(kinds == [.action], "\(name): \(summary)")
      if example.failure == .invalidParameter, let message = summary.first, message.hasPrefix("parameter '") {
        let parameter = message.dropFirst("parameter '".count).prefix { $0 != "'" && $0 != "." }
        #expect(action.signature.parameter(String(parameter)) != nil, "\(name): '\(parameter)' is not declared")
      }
    }
  }
}
