/// A keyed store of items that expire on the virtual clock: transactions, codes, sessions.
actor ExpiringStore<Item: Sendable> {
  private var items: [String: (item: Item, expiresAt: Double)] = [:]

  func insert(_ item: Item, key: String, expiresAt: Double) {
    items[key] = (item, expiresAt)
  }

  /// The live item, or nil (expired items are dropped).
  func get(_ key: String, now: Double) -> Item? {
    guard let entry = items[key] else { return nil }
    guard entry.expiresAt > now else {
      items[key] = nil
      return nil
    }
    return entry.item
  }

  /// Removes and returns the item: single use.
  func take(_ key: String, now: Double) -> Item? {
    guard let entry = items.removeValue(forKey: key), entry.expiresAt > now else { return nil }
    return entry.item
  }

  /// Whether `key` is live, expired or unknown; expired items are kept, so they stay "expired".
  enum Lookup { case live(Item), expired, missing }

  func lookup(_ key: String, now: Double) -> Lookup {
    guard let entry = items[key] else { return .missing }
    return entry.expiresAt > now ? .live(entry.item) : .expired
  }

  func remove(_ key: String) {
    items[key] = nil
  }

  func removeAll() {
    items.removeAll()
  }
}
