public import AuthFlowScenario

/// `--shard K/N`: this machine runs shard K of N.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  /// Parses `K/N` with 1 ≤ K ≤ N; nil otherwise.
  public init?(_ text: String) {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { return nil }
    self.index = index
    self.count = count
  }

  /// Shard `index` of `count`, with 1 ≤ index ≤ count; nil otherwise.
  public init?(index: Int, count: Int) {
    guard count >= 1, (1...count).contains(index) else { return nil }
    self.index = index
    self.count = count
  }

  public var description: String { "\(index)/\(count)" }

  /// Whether this shard runs `instance`. The assignment hashes the scenario's file and instance
  /// name with FNV-1a, so it is the same on every machine and does not depend on which other
  /// files exist or the order they were listed in.
  public func contains(_ instance: ScenarioInstance) -> Bool {
    Int(Self.fnv1a("\(instance.scenario.file)\u{0}\(instance.name)") % UInt64(count)) == index - 1
  }

  static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}

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
