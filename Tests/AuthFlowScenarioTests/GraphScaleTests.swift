import AuthFlowCore
import AuthFlowScenario
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
    let start = ContinuousClock.now
    let (scenario, found) = loader.load(text: yaml, file: testFile)
    let elapsed = ContinuousClock.now - start
    #expect(scenario?.steps.count == Self.steps)
    #expect(found.filter { $0.severity == .error }.isEmpty, "\(found.prefix(3).map(\.description))")
    #expect(elapsed < .seconds(3), "\(name): \(elapsed)")
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
