import AuthFlowCore
public import AuthFlowScenario

extension Selection {
  /// A `--tag` or `--skip-tag` value that no loaded scenario has, with a "did you mean".
  public struct UnknownTag: Sendable, Hashable {
    /// `--tag` or `--skip-tag`.
    public var flag: String
    public var tag: String
    public var hint: String?

    /// `--tag 'smok' matches no scenario (did you mean 'smoke'?)`.
    public var message: String { SelectionMessages.unknownTag(self) }
  }

  /// The tags given to `--tag` and `--skip-tag` that none of `scenarios` has: a typo there would
  /// otherwise select nothing (or skip nothing) without a word.
  public func unknownTags(in scenarios: [Scenario]) -> [UnknownTag] {
    unknownTags(known: Set(scenarios.flatMap { $0.tags.map(\.value) }))
  }

  /// The tags given to `--tag` and `--skip-tag` that are not in `known`.
  public func unknownTags(known: Set<String>) -> [UnknownTag] {
    let sortedKnown = known.sorted()
    var unknown: [UnknownTag] = []
    for (flag, values) in [("--tag", tags), ("--skip-tag", skipTags)] {
      for tag in values where !known.contains(tag) {
        unknown.append(UnknownTag(flag: flag, tag: tag, hint: Suggestion.hint(for: tag, in: sortedKnown)))
      }
    }
    return unknown
  }

  /// What was selected, for the message of a selection that runs nothing:
  /// `paths scenarios/, --tag smoke, --shard 3/4`.
  public func description(paths: [String]) -> String {
    var parts = ["paths " + paths.joined(separator: " ")]
    parts += tags.map { "--tag \($0)" }
    parts += skipTags.map { "--skip-tag \($0)" }
    if let shard { parts.append("--shard \(shard)") }
    return parts.joined(separator: ", ")
  }
}

/// The messages of `--tag`, `--skip-tag`, `--shard` and `--allow-empty`.
public enum SelectionMessages {
  static func unknownTag(_ unknown: Selection.UnknownTag) -> String {
    "\(unknown.flag) '\(unknown.tag)': no scenario has this tag" + (unknown.hint.map { " (\($0))" } ?? "")
  }

  /// The error of a run whose selection is empty (exit 2 unless `--allow-empty`).
  public static func emptySelection(_ selection: Selection, paths: [String], loaded: Int) -> String {
    "the selection runs no scenario (\(selection.description(paths: paths)); \(loaded) scenario instance\(loaded == 1 ? "" : "s") loaded); pass --allow-empty if that is intended"
  }

  /// The note of an empty selection allowed by `--allow-empty`.
  public static func emptySelectionAllowed(_ selection: Selection, paths: [String]) -> String {
    "note: the selection runs no scenario (\(selection.description(paths: paths))); --allow-empty"
  }
}
