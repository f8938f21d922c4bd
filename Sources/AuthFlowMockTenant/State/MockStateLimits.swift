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

  /// The limits of the embedded mock of one `authflow run` with `jobs` scenarios at once: 250
  /// entries per store for each running scenario (1,000 at least, the default 5,000 at most).
  /// That mock serves only the run's own scenarios, whose live state is the newest in every
  /// store, so what a full store drops (the entries that expire first) belongs to scenarios that
  /// have ended; a smaller cap keeps a long run's memory at the size of a short one's
  /// (docs/tenants.md, "Mock limits").
  public static func embedded(jobs: Int) -> MockStateLimits {
    var limits = MockStateLimits()
    limits.maxEntriesPerStore = min(limits.maxEntriesPerStore, max(1_000, 250 * max(1, jobs)))
    return limits
  }

  /// How many entries are kept when a full store is trimmed.
  var trimmedSize: Int { max(1, maxEntriesPerStore - maxEntriesPerStore / 4) }
}

extension Dictionary {
  /// Removes the entries whose value `isDropped` picks, in place: the entries kept are not
  /// copied, and the storage keeps its capacity, so a store purged every few inserts does not
  /// allocate a second store each time.
  mutating func removeEntries(where isDropped: (Value) -> Bool) {
    var dropped: [Key] = []
    for (key, value) in self where isDropped(value) { dropped.append(key) }
    for key in dropped { removeValue(forKey: key) }
  }

  /// Keeps the `count` entries with the largest `rank` (the latest expiry or start), in place:
  /// what a full store keeps when ``MockStateLimits/maxEntriesPerStore`` is passed. Of the
  /// entries tied at the cut, as many are kept as fit.
  mutating func keepLargest(_ count: Int, by rank: (Value) -> Double) {
    guard self.count > count else { return }
    guard count > 0 else { return removeAll(keepingCapacity: true) }
    var ranks = values.map(rank)
    ranks.sort(by: >)
    let cut = ranks[count - 1]
    var tiesKept = count - ranks[..<count].lazy.filter { $0 > cut }.count
    removeEntries { value in
      let valueRank = rank(value)
      if valueRank > cut { return false }
      if valueRank == cut, tiesKept > 0 {
        tiesKept -= 1
        return false
      }
      return true
    }
  }
}
