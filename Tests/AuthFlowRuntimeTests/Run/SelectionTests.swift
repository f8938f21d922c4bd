import AuthFlowCore
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// `--tag`, `--skip-tag`, `--shard`: unknown tags and empty selections are named, never silent.
@Suite struct SelectionTests {
  static func scenarios() throws -> [Scenario] {
    [
      try ScenarioHarness.parse("scenario: a\ntags: [smoke, login]\nsteps:\n  - wait: 1ms\n", file: "a.yaml"),
      try ScenarioHarness.parse("scenario: b\ntags: [slow]\nsteps:\n  - wait: 1ms\n", file: "b.yaml"),
    ]
  }

  @Test func unknownTagsAreNamedWithSuggestion() throws {
    let selection = Selection(tags: ["smok", "login"], skipTags: ["slo", "nothing_like_it"])
    let unknown = selection.unknownTags(in: try Self.scenarios())
    #expect(
      unknown.map(\.message) == [
        "--tag 'smok': no scenario has this tag (did you mean 'smoke'?)",
        "--skip-tag 'slo': no scenario has this tag (did you mean 'slow'?)",
        "--skip-tag 'nothing_like_it': no scenario has this tag",
      ])
  }

  @Test func knownTagsAreFine() throws {
    #expect(Selection(tags: ["smoke"], skipTags: ["slow"]).unknownTags(in: try Self.scenarios()).isEmpty)
  }

  @Test func emptySelectionNamesWhatWasSelected() throws {
    let selection = Selection(tags: ["smoke"], skipTags: ["login"], shard: Shard("2/3"))
    #expect(selection.apply(to: try Self.scenarios().flatMap(\.instances)).isEmpty)
    #expect(
      SelectionMessages.emptySelection(selection, paths: ["scenarios/"], loaded: 2)
        == "the selection runs no scenario (paths scenarios/, --tag smoke, --skip-tag login, --shard 2/3; 2 scenario instances loaded); pass --allow-empty if that is intended"
    )
  }
}
