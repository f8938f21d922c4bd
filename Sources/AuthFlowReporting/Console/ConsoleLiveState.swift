/// Which scenarios the console already printed live, so that `finish` prints only the rest (those
/// that never started: skipped for a missing capability, or not run after an interruption).
///
/// Scenarios finish concurrently, so this is shared mutable state. It keeps a hash of each
/// printed scenario's file and name, not the texts: a long run's console holds a word or two per
/// scenario. (Two scenarios sharing a hash would only leave one line out of the list printed at
/// the end for scenarios that never started.)
actor ConsoleLiveState {
  private var printed: [Int: Int] = [:]

  /// Records that a line for the scenario was printed.
  func markPrinted(file: String, name: String) {
    printed[Self.key(file: file, name: name), default: 0] += 1
  }

  /// True when a line for the scenario was printed live (consuming it, so that two instances with
  /// the same name are counted apart).
  func consumePrinted(file: String, name: String) -> Bool {
    let key = Self.key(file: file, name: name)
    guard let count = printed[key], count > 0 else { return false }
    // Consumed keys go, so the map holds only what is still to be matched.
    printed[key] = count > 1 ? count - 1 : nil
    return true
  }

  private static func key(file: String, name: String) -> Int {
    var hasher = Hasher()
    hasher.combine(file)
    hasher.combine(name)
    return hasher.finalize()
  }
}
