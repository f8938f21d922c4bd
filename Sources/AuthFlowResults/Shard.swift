public import AuthFlowScenario

/// `--shard K/N`: this machine runs shard K of N.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
  public var index: Int
  public var count: Int
  /// What the whole run selected, before it was split (nil in reports written before it was
  /// recorded): shards run on different scenario sets (another commit, other paths or tags) would
  /// merge into a run that misses some scenarios and passes. `authflow report merge` compares it.
  public var selection: Selection?

  /// The instances of the whole selection (every shard's): how many, and a digest of their
  /// identities (file and instance name), the same whatever their order.
  public struct Selection: Sendable, Hashable, CustomStringConvertible {
    public var instances: Int
    public var digest: UInt64

    public init(instances: Int = 0, digest: UInt64 = 0) {
      self.instances = instances
      self.digest = digest
    }

    /// Adds the instance named `name` of the scenario in `file`.
    public mutating func add(file: String, name: String) {
      instances += 1
      digest &+= Shard.identity(file: file, name: name)
    }

    /// The digest as 16 hex digits, as reports write it.
    public var digestText: String {
      let hex = String(digest, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `55 scenario instances (selection 0123…)`.
    public var description: String {
      "\(instances) scenario instance\(instances == 1 ? "" : "s") (selection \(digestText))"
    }
  }

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
  /// name (FNV-1a, then the MurmurHash3 finalizer), so it is the same on every machine and does
  /// not depend on which other files exist or the order they were listed in.
  public func contains(_ instance: ScenarioInstance) -> Bool {
    contains(file: instance.scenario.file, name: instance.name)
  }

  /// Whether this shard runs the instance named `name` of the scenario in `file`.
  public func contains(file: String, name: String) -> Bool {
    Int(Self.identity(file: file, name: name) % UInt64(count)) == index - 1
  }

  /// The hash of an instance's identity that places it in a shard.
  static func identity(file: String, name: String) -> UInt64 {
    mixed(fnv1a("\(file)\u{0}\(name)"))
  }

  /// MurmurHash3's 64-bit finalizer: every bit of `hash` moves every bit of the result. FNV-1a
  /// alone leaves its low bits weak — its lowest bit is the parity of the odd bytes — and the
  /// shard is taken from the low end: with an even N, files whose names repeat their numbers
  /// (`scenario-00007.yaml`, `bench scenario 7`) all fell in every other shard, and the empty
  /// shards failed their CI jobs ("the selection runs no scenario").
  static func mixed(_ hash: UInt64) -> UInt64 {
    var mixed = hash
    mixed ^= mixed >> 33
    mixed &*= 0xff51_afd7_ed55_8ccd
    mixed ^= mixed >> 33
    mixed &*= 0xc4ce_b9fe_1a85_ec53
    mixed ^= mixed >> 33
    return mixed
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
