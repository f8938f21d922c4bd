import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// Every matcher's examples (`MatcherRegistry`), run by the interpreter against a `set` step's
/// result: the ones that hold leave no problem, each failing one fails the step with its message.
@Suite struct MatcherExampleRunTests {
  @Test(arguments: MatcherRegistry.kinds) func everyExampleRunsAsItSays(_ kind: Matcher.Kind) async throws {
    for example in kind.rule.examples {
      let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
        """
        scenario: \(kind) example
        steps:
          - id: values
            set: { value: \(example.actual.jsonText()) }
            expect:
              value: { \(kind): \(example.operand.jsonText()) }
        """)
      let problems = report.steps.flatMap(\.problems)
      #expect(problems.map(\.message) == (example.message.map { [$0] } ?? []), "\(kind)")
      #expect(problems.allSatisfy { $0.matcher == kind.rawValue }, "\(kind)")
      #expect(report.status == (example.message == nil ? .passed : .failed), "\(kind)")
    }
  }
}
