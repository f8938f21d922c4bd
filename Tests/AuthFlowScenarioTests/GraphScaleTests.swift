import AuthFlowCore
import AuthFlowScenario
import Foundation
import Testing

/// Graph checks are near-linear: a 10,000-step scenario validates in well under a second (they
/// were quadratic: 8,000 steps took seconds).
@Suite struct GraphScaleTests {
  static let steps = 10_000

  /// Each step reads the one before it: 10,000 "ran before" questions over a 10,000-deep chain.
  static var chain: String {
    var yaml = "scenario: chain\nsteps:\n  - id: s0\n    set: { v0: 1 }\n"
    for index in 1..<steps {
      yaml += "  - id: s\(index)\n    assert: \"${{ steps.s\(index - 1).v\(index - 1) == 1 }}\"\n"
    }
    return yaml
  }

  /// A fan: every step needs the first twenty and reads one of them; the last needs a hundred.
  static var fan: String {
    var yaml = "scenario: fan\nsteps:\n"
    for index in 0..<20 { yaml += "  - id: r\(index)\n    needs: []\n    logout:\n" }
    let roots = (0..<20).map { "r\($0)" }.joined(separator: ", ")
    for index in 0..<(steps - 21) {
      yaml += "  - id: s\(index)\n    needs: [\(roots)]\n    assert: \"${{ steps.r\(index % 20).status }}\"\n"
    }
    let many = (0..<100).map { "s\($0)" }.joined(separator: ", ")
    yaml += "  - id: last\n    needs: [\(many)]\n    assert: \"${{ steps.s99.status }}\"\n"
    return yaml
  }

  @Test(arguments: [("chain", chain), ("fan", fan)])
  func validatesFast(name: String, yaml: String) {
    let loader = ScenarioLoader(catalog: .test)
    // The CPU time of this thread, not the wall clock: loading is synchronous, and a machine busy
    // with the rest of the suite stalls the wall clock for tens of seconds. Quadratic checks took
    // tens of CPU seconds here; near-linear ones take about one in a debug build.
    let start = Self.threadCPUTime()
    let (scenario, found) = loader.load(text: yaml, file: testFile)
    let elapsed = Self.threadCPUTime() - start
    #expect(scenario?.steps.count == Self.steps)
    #expect(found.filter { $0.severity == .error }.isEmpty, "\(found.prefix(3).map(\.description))")
    #expect(elapsed < .seconds(5), "\(name): \(elapsed) of CPU")
  }

  /// The CPU time the calling thread has used.
  static func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }

  @Test func aLongChainHasNoStackOverflowInCycleSearch() {
    var yaml = "scenario: cycle\nsteps:\n  - id: s0\n    needs: [s\(Self.steps - 1)]\n    logout:\n"
    for index in 1..<Self.steps { yaml += "  - id: s\(index)\n    logout:\n" }
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(found.contains { $0.message.contains("cycle") })
  }

  @Test func referencesStillNeedAnAncestor() {
    let yaml = """
      scenario: x
      steps:
        - id: a
          needs: []
          logout:
        - id: b
          needs: []
          assert: "${{ steps.a.status }}"
      """
    let found = ScenarioLoader(catalog: .test).load(text: yaml, file: testFile).diagnostics
    #expect(found.contains { $0.message.contains("'a'") && $0.severity == .error })
  }
}
