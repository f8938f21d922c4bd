import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// `--tag` and `--skip-tag`: a scenario runs when it has one of the `--tag`s (all run without
/// one) and none of the `--skip-tag`s; the skip wins.
@Suite struct TagSelectionTests {
  static func instances() throws -> [ScenarioInstance] {
    let scenarios = [("a", "[smoke, login]"), ("b", "[slow]"), ("c", "[smoke, slow]"), ("d", "[]")]
    return try scenarios.flatMap { name, tags in
      try ScenarioHarness.parse("scenario: \(name)\ntags: \(tags)\nsteps:\n  - wait: 1ms\n", file: "\(name).yaml")
        .instances
    }
  }

  private func selected(_ selection: Selection) throws -> [String] {
    selection.apply(to: try Self.instances()).map(\.name)
  }

  @Test func theInstancesAreAllThere() throws {
    #expect(try Self.instances().map(\.name) == ["a", "b", "c", "d"])
  }

  @Test func noFlagRunsEverything() throws {
    #expect(try selected(Selection()) == ["a", "b", "c", "d"])
  }

  @Test func aTagRunsTheScenariosThatHaveIt() throws {
    #expect(try selected(Selection(tags: ["smoke"])) == ["a", "c"])
    #expect(try selected(Selection(tags: ["login"])) == ["a"])
  }

  @Test func severalTagsRunTheScenariosThatHaveAnyOfThem() throws {
    #expect(try selected(Selection(tags: ["login", "slow"])) == ["a", "b", "c"])
  }

  @Test func aSkipTagLeavesOutTheScenariosThatHaveIt() throws {
    #expect(try selected(Selection(skipTags: ["slow"])) == ["a", "d"])
  }

  @Test func theSkipTagWinsOverTheTag() throws {
    #expect(try selected(Selection(tags: ["smoke"], skipTags: ["slow"])) == ["a"])
  }

  @Test func aTagNoScenarioHasSelectsNothing() throws {
    #expect(try selected(Selection(tags: ["nightly"])) == [])
  }
}
