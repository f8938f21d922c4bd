import AuthFlowCore

/// What makes two mapping keys the same key, exactly as Yams' `Node` compared them in its
/// duplicate-key check: a scalar by its text and resolved tag (not its quoting, not its place), a
/// list by its elements and tag, a mapping by its keys and values in order and its tag. Text
/// compares as Swift strings do (canonically equivalent spellings are equal).
enum YAMLKeyShape: Hashable {
  /// `tag` is nil for the kind's default tag (`!!str`, `!!seq`, `!!map`), however it was written:
  /// implicit, the non-specific `!`, or explicit.
  case scalar(String, tag: String?)
  case sequence([YAMLKeyShape], tag: String?)
  /// Keys and values in turn.
  case mapping([YAMLKeyShape], tag: String?)

  static let strTag = "tag:yaml.org,2002:str"
  static let seqTag = "tag:yaml.org,2002:seq"
  static let mapTag = "tag:yaml.org,2002:map"
  private static let valueTag = "tag:yaml.org,2002:value"

  /// The tag as a key compares it: nil for `defaultTag`.
  static func tag(_ written: String?, default defaultTag: String) -> String? {
    guard let written, written != "!", written != defaultTag else { return nil }
    return written
  }

  /// The resolved tag's name.
  private var resolvedTag: String {
    switch self {
    case .scalar(_, let tag): return tag ?? Self.strTag
    case .sequence(_, let tag): return tag ?? Self.seqTag
    case .mapping(_, let tag): return tag ?? Self.mapTag
    }
  }

  /// How the duplicate-key message names the key: a scalar's text; for a mapping, the value of
  /// its first `!!value`-tagged key; else none (Yams' `Node.string`).
  private var label: String? {
    switch self {
    case .scalar(let text, _): return text
    case .sequence: return nil
    case .mapping(let items, _):
      for index in stride(from: 0, to: items.count - 1, by: 2) where items[index].resolvedTag == Self.valueTag {
        return items[index + 1].label
      }
      return nil
    }
  }

  /// Yams' order of keys (`Node.<`): scalars by text, lists by elements, mappings by their keys;
  /// keys of different kinds are unordered.
  private static func precedes(_ lhs: YAMLKeyShape, _ rhs: YAMLKeyShape) -> Bool {
    switch (lhs, rhs) {
    case (.scalar(let left, _), .scalar(let right, _)):
      return left < right
    case (.sequence(let left, _), .sequence(let right, _)):
      return precedes(left[...], right[...])
    case (.mapping(let left, _), .mapping(let right, _)):
      return precedes(keys(of: left), keys(of: right))
    default:
      return false
    }
  }

  private static func keys(of items: [YAMLKeyShape]) -> ArraySlice<YAMLKeyShape> {
    ArraySlice(stride(from: 0, to: items.count, by: 2).map { items[$0] })
  }

  private static func precedes(_ lhs: ArraySlice<YAMLKeyShape>, _ rhs: ArraySlice<YAMLKeyShape>) -> Bool {
    for (left, right) in zip(lhs, rhs) {
      if precedes(left, right) { return true }
      if precedes(right, left) { return false }
    }
    return lhs.count < rhs.count
  }

  /// The duplicate-key diagnostic of a mapping of `pairs` whose keys' shapes are `keys`, or nil.
  /// The message lists each repeated key once, in Yams' order of keys, at the first place the
  /// first of them is written.
  static func duplicateKeys(_ keys: [YAMLKeyShape], of pairs: [YAMLPair]) -> Diagnostic? {
    guard hasDuplicate(keys) else { return nil }
    // The first occurrence of each key, and how many times it occurs.
    var first: [YAMLKeyShape: Int] = [:]
    var occurrences = [Int](repeating: 0, count: keys.count)
    for (index, key) in keys.enumerated() {
      let representative = first[key] ?? index
      first[key] = representative
      occurrences[representative] += 1
    }
    let repeated = keys.indices.filter { occurrences[$0] > 1 }.sorted { precedes(keys[$0], keys[$1]) }
    guard let firstRepeated = repeated.first else { return nil }
    return .yamlDuplicateKeys(
      repeated.map { keys[$0].label ?? "<uncovertable>" }, at: pairs[firstRepeated].key.location)
  }

  /// Whether any key occurs twice: pairwise for the few keys of most mappings, hashed beyond.
  private static func hasDuplicate(_ keys: [YAMLKeyShape]) -> Bool {
    if keys.count < 2 { return false }
    if keys.count <= 12 {
      for index in 1..<keys.count where keys[..<index].contains(keys[index]) { return true }
      return false
    }
    var seen = Set<YAMLKeyShape>(minimumCapacity: keys.count)
    return keys.contains { !seen.insert($0).inserted }
  }
}
