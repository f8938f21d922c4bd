import Foundation

/// A keyed store of items that expire on the virtual clock: transactions, codes, sessions.
///
/// A value type: it lives inside ``MockState`` and is changed only under the tenant's state lock,
/// so a read and the write that depends on it are one step.
///
/// Bounded (``MockStateLimits``): every `purgeInterval` inserts, entries expired for longer than
/// `expiredGrace` are dropped, and past `maxEntriesPerStore` the entries nearest expiry go.
struct ExpiringStore<Item: Sendable>: Sendable {
  private var items: [String: (item: Item, expiresAt: Double)] = [:]
  private let limits: MockStateLimits
  private let now: @Sendable () -> Double
  private var insertsSincePurge = 0

  /// - Parameter now: the tenant's virtual time in seconds (purges compare expiry with it).
  init(
    limits: MockStateLimits = MockStateLimits(),
    now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) {
    self.limits = limits
    self.now = now
  }

  mutating func insert(_ item: Item, key: String, expiresAt: Double) {
    items[key] = (item, expiresAt)
    insertsSincePurge += 1
    if insertsSincePurge >= limits.purgeInterval { purgeExpired() }
    if items.count > limits.maxEntriesPerStore { trim() }
  }

  /// The live item, or nil (expired items are dropped).
  mutating func get(_ key: String, now: Double) -> Item? {
    guard let entry = items[key] else { return nil }
    guard entry.expiresAt > now else {
      items[key] = nil
      return nil
    }
    return entry.item
  }

  /// The live item, or nil; unlike ``get(_:now:)`` it drops nothing, so a read outside a
  /// transaction (``MockStateOwner/read(_:)``) can use it.
  func live(_ key: String, now: Double) -> Item? {
    guard let entry = items[key], entry.expiresAt > now else { return nil }
    return entry.item
  }

  /// The item as stored, live or expired (expired items are kept for `expiredGrace`): for stores
  /// whose items answer "expired" to their owner only (CIBA requests).
  func stored(_ key: String) -> Item? { items[key]?.item }

  /// Removes and returns the item: single use.
  mutating func take(_ key: String, now: Double) -> Item? {
    guard let entry = items.removeValue(forKey: key), entry.expiresAt > now else { return nil }
    return entry.item
  }

  /// Whether `key` is live, expired or unknown; expired items are kept (for `expiredGrace`), so
  /// they stay "expired".
  enum Lookup { case live(Item), expired, missing }

  func lookup(_ key: String, now: Double) -> Lookup {
    guard let entry = items[key] else { return .missing }
    return entry.expiresAt > now ? .live(entry.item) : .expired
  }

  mutating func remove(_ key: String) {
    items[key] = nil
  }

  /// How many entries the store holds (live or recently expired).
  var count: Int { items.count }

  private mutating func purgeExpired() {
    insertsSincePurge = 0
    let cutoff = now() - limits.expiredGrace
    items.removeEntries { $0.expiresAt <= cutoff }
  }

  /// Drops expired entries, then, if still full, keeps the `trimmedSize` entries expiring last.
  private mutating func trim() {
    purgeExpired()
    guard items.count > limits.maxEntriesPerStore else { return }
    items.keepLargest(limits.trimmedSize) { $0.expiresAt }
  }
}
