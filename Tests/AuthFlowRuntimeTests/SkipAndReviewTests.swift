import AuthFlowCore
import AuthFlowResults
import Testing

@testable import AuthFlowRuntime

/// `skip` ends a scenario as skipped with its reason (what the OpenID conformance suite calls
/// fireTestSkipped); `review` marks it for a person to confirm, without changing the verdict.
@Suite struct SkipAndReviewTests {
  @Test func aSkipStepEndsTheScenarioSkippedWithItsReason() async throws {
    let scenario = try await MockHarness.run(
      """
      scenario: Skipped while running
      steps:
        - id: first
          assert: { value: 1 }
        - id: missing
          skip: the tenant does not list the scope phone
        - id: after
          assert: ${{ false }}
      cleanup:
        - id: tidy
          assert: { value: 2 }
      """)
    #expect(scenario.status == .skipped)
    #expect(scenario.skipReason == "the tenant does not list the scope phone")
    #expect(scenario.step("first")?.status == .passed)
    #expect(scenario.step("missing")?.status == .skipped)
    let after = try #require(scenario.step("after"))
    #expect(after.status == .skipped && after.attempts == 0)
    #expect(after.skipReason == "the scenario was skipped at step 'missing'")
    // Cleanup still runs.
    #expect(scenario.step("tidy")?.status == .passed)
  }

  @Test func aSkipGuardedByAFalseIfSkipsNothing() async throws {
    let scenario = try await MockHarness.run(
      """
      scenario: Not skipped
      steps:
        - id: missing
          if: ${{ 1 == 2 }}
          skip: never
        - id: after
          assert: { value: 1 }
      """)
    #expect(scenario.status == .passed)
  }

  /// A failure before the skip decides: a failed module never becomes a skipped one.
  @Test func aFailureBeforeTheSkipStaysAFailure() async throws {
    let scenario = try await MockHarness.run(
      """
      scenario: Failed, then skipped
      steps:
        - id: broken
          assert: { value: 1 }
          expect: { value: 2 }
        - id: elsewhere
          needs: []
          skip: a reason
      """)
    #expect(scenario.status == .failed)
  }

  @Test func aReviewKeepsTheVerdictAndMarksTheScenario() async throws {
    let scenario = try await MockHarness.run(
      """
      scenario: For review
      steps:
        - id: look
          review:
            reason: the page shows the tenant's logo
            evidence: https://tenant.example/u/login
      """)
    #expect(scenario.status == .passed)
    #expect(scenario.reviews.map(\.message) == ["for review: the page shows the tenant's logo"])
    #expect(scenario.reviews.first?.severity == .warning)
    #expect(scenario.step("look")?.result?.member("evidence")?.stringValue == "https://tenant.example/u/login")
  }
}
