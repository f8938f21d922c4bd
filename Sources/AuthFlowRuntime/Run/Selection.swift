public import AuthFlowResults
public import AuthFlowScenario

/// Which scenario instances a run takes: `--tag`, `--skip-tag`, `--shard`.
public struct Selection: Sendable {
  /// A scenario runs when it has at least one of these tags (all run when empty).
  public var tags: [String]
  /// A scenario with any of these tags does not run.
  public var skipTags: [String]
  public var shard: Shard?

  public init(tags: [String] = [], skipTags: [String] = [], shard: Shard? = nil) {
    self.tags = tags
    self.skipTags = skipTags
    self.shard = shard
  }

  public func apply(to instances: [ScenarioInstance]) -> [ScenarioInstance] {
    instances.filter { instance in
      let tags = Set(instance.scenario.tags.map(\.value))
      if !self.tags.isEmpty && tags.isDisjoint(with: self.tags) { return false }
      if !tags.isDisjoint(with: skipTags) { return false }
      return shard?.contains(instance) ?? true
    }
  }
}
