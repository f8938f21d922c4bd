import AuthFlowCore
import AuthFlowRuntime
import Testing

/// `--fail-on-skip`: a skipped scenario, or a step skipped by its `if:`, makes a green run exit 1.
@Suite struct FailOnSkipTests {
  @Test func skipsAreCountedAndFailTheRun() async throws {
    let report = try await MockHarness.run([
      "scenario: Runs everything\nsteps:\n  - wait: 1ms\n",
      "scenario: Pinned elsewhere\ntenant: staging\nsteps:\n  - wait: 1ms\n",
      "scenario: Conditional\nsteps:\n  - id: maybe\n    if: ${{ false }}\n    wait: 1ms\n  - wait: 1ms\n",
    ])
    #expect(report.exitCode == .success)
    #expect(report.exitCode(failOnSkip: false) == .success)
    #expect(report.exitCode(failOnSkip: true) == .failure)
    #expect(
      report.skips.map(\.description) == [
        "Pinned elsewhere: skipped (the scenario is pinned to tenant 'staging' (this run uses 'mock'))",
        "Conditional › step 'maybe': skipped (its `if` condition is false)",
      ])
  }

  /// A scenario none of whose main steps ran checked nothing: skipped, not passed — counted once
  /// by `--fail-on-skip` (not once per step), whatever its cleanup did; one step that ran makes
  /// it pass.
  @Test func aScenarioWhoseStepsAllSkippedIsSkippedNotPassed() async throws {
    let report = try await MockHarness.run([
      "scenario: Nothing ran\nsteps:\n  - id: a\n    if: ${{ false }}\n    wait: 1ms\n  - id: b\n    if: ${{ 1 == 2 }}\n    wait: 1ms\ncleanup:\n  - wait: 1ms\n",
      "scenario: One ran\nsteps:\n  - id: a\n    if: ${{ false }}\n    wait: 1ms\n  - id: c\n    wait: 1ms\n",
    ])
    let nothing = try #require(report.scenarios.first { $0.name == "Nothing ran" })
    #expect(nothing.status == .skipped, "\(nothing.steps.map { "\($0.id) \($0.status)" })")
    #expect(nothing.skipReason?.contains("none of its steps ran") == true)
    #expect(report.scenarios.first { $0.name == "One ran" }?.status == .passed)
    #expect(report.exitCode == .success)
    #expect(report.exitCode(failOnSkip: true) == .failure)
    #expect(
      report.skips.map(\.description).sorted() == [
        "Nothing ran: skipped (\(nothing.skipReason ?? ""))",
        "One ran › step 'a': skipped (its `if` condition is false)",
      ])
  }

  @Test func aRunWithoutSkipsStaysGreen() async throws {
    let report = try await MockHarness.run(["scenario: Runs everything\nsteps:\n  - wait: 1ms\n"])
    #expect(report.skips.isEmpty)
    #expect(report.exitCode(failOnSkip: true) == .success)
  }

  @Test func dependantsOfAFailureAreNotCountedTwice() async throws {
    let report = try await MockHarness.run([
      "scenario: Fails\nsteps:\n  - id: a\n    assert: false\n  - id: b\n    wait: 1ms\n"
    ])
    #expect(report.skips.isEmpty)
    #expect(report.exitCode(failOnSkip: true) == .failure)
  }
}
