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
