import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// `not_contains`, `not_matches` and `not_one_of`, run by the interpreter against a `set` step's
/// result (no tenant is contacted): each holds where its positive form does not, and fails with
/// the positive form's wording negated.
@Suite struct NegatedMatcherTests {
  private func messages(_ expect: String) async throws -> [String] {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Negated matchers
      steps:
        - id: values
          set:
            scope: openid profile
            roles: [admin, user]
            state: active
            count: 3
          expect: \(expect)
      """)
    return report.steps.flatMap(\.problems).map(\.message)
  }

  @Test func notContainsHoldsForAStringAListAndAnAbsentValue() async throws {
    let found = try await messages(
      "{ scope: { not_contains: email }, roles: { not_contains: owner }, missing: { not_contains: x } }")
    #expect(found == [])
  }

  @Test func notContainsFailsWhenTheValueContainsIt() async throws {
    let found = try await messages("{ scope: { not_contains: profile }, roles: { not_contains: admin } }")
    #expect(
      found == [
        "expected scope not to contain \"profile\", found \"openid profile\"",
        "expected roles not to contain \"admin\", found [\"admin\",\"user\"]",
      ])
  }

  @Test func notMatchesHoldsWhenNothingMatches() async throws {
    let found = try await messages(#"{ state: { not_matches: '^dis' }, count: { not_matches: '\d' } }"#)
    #expect(found == [])
  }

  @Test func notMatchesFailsWhenTheRegexMatches() async throws {
    let found = try await messages("{ state: { not_matches: '^act' } }")
    #expect(found == ["expected state not to match \"^act\", found \"active\""])
  }

  @Test func notOneOfHoldsWhenNoElementIsEqual() async throws {
    let found = try await messages("{ state: { not_one_of: [disabled, blocked] }, count: { not_one_of: [1, 2] } }")
    #expect(found == [])
  }

  @Test func notOneOfFailsWhenAnElementIsEqual() async throws {
    let found = try await messages("{ state: { not_one_of: [blocked, active] }, count: { not_one_of: [3.0] } }")
    #expect(
      found == [
        "expected state not to be one of [\"blocked\",\"active\"], found \"active\"",
        "expected count not to be one of [3], found 3",
      ])
  }

  @Test func typeSecretAndStringComparisons() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Secrets and ordered strings
      steps:
        - id: values
          set:
            hidden: ${{ secret('p4ssw0rd') }}
            plain: visible
            day: '2024-06-01'
          expect:
            hidden: { type: secret }
            day: { gt: '2024-01-01', lt: '2024-12-31' }
        - id: failing
          set:
            plain: visible
            day: '2024-06-01'
            count: 3
          expect:
            plain: { type: secret }
            day: { gte: '2025-01-01' }
            count: { type: "${{ 'integer' }}" }
      """)
    #expect(report.step("values")?.problems.map(\.message) == [])
    #expect(
      report.step("failing")?.problems.map(\.message) == [
        "expected plain to have type \"secret\", found \"visible\"",
        "expected day to be at least \"2025-01-01\", found \"2024-06-01\"",
        "expected count to have type \"integer\" (not a type name; the types are \(Matcher.typeNames.joined(separator: ", "))), found 3",
      ])
  }
}
