/// Bounds on the mock's per-login state, so that its memory stays flat under sustained load
/// (docs/tenants.md, "Mock limits"): every store of transactions, codes, sessions, refresh-token
/// families, rate-limit windows and outbox messages is purged of what has expired and capped.
public struct MockStateLimits: Sendable {
  /// The most entries one store keeps; past it, the entries nearest expiry are dropped (a quarter
  /// at a time, so the cost is spread over many inserts).
  public var maxEntriesPerStore = 5_000
  /// How long (virtual seconds) an expired entry is kept — so it still answers "expired" rather
  /// than "unknown" — before a purge drops it.
  public var expiredGrace: Double = 3_600
  /// The most messages the outbox keeps; the oldest go first.
  public var maxOutboxMessages = 1_000
  /// A store purges expired entries once every this many inserts.
  public var purgeInterval = 64

  public init() {}

  /// How many entries are kept when a full store is trimmed.
  var trimmedSize: Int { max(1, maxEntriesPerStore - maxEntriesPerStore / 4) }
}

extension Dictionary {
  /// The `count` entries with the largest `rank` (the latest expiry or start): what a full store
  /// keeps when ``MockStateLimits/maxEntriesPerStore`` is passed.
  func keepingLargest(_ count: Int, by rank: (Value) -> Double) -> [Key: Value] {
    let kept = sorted { rank($0.value) > rank($1.value) }.prefix(count)
    return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
  }
}
