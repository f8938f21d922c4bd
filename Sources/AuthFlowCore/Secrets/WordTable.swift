/// How a ``WordTable`` finds a word: the key it is stored and looked up by.
protocol WordKeying {
  /// The key of a stored word (never called on the empty word, 0).
  static func key(of word: UInt64) -> UInt64
}

/// A hash table of nonzero 64-bit words, each found by its key (``WordKeying``): open addressing
/// with linear probing over one array of words, its capacity any size (a slot is picked by a
/// multiply, not a mask), filled to at most 80 % and grown by half.
///
/// What the secret registry keeps for every pattern of a run, so it is kept at one word a
/// pattern and a fifth of a word spare on average over the run: `Set<UInt64>` and
/// `[UInt32: UInt64]` double at three quarters full (a third of their slots empty on average, the
/// dictionary 12 bytes a slot), and while one doubles the old and the new table are both held.
/// Words are never removed: the registry forgets nothing during a run.
struct WordTable<Keying: WordKeying> {
  private(set) var slots: [UInt64]
  private(set) var count = 0

  init() {
    slots = [UInt64](repeating: 0, count: 16)
  }

  /// The word stored under `key`, or nil.
  func word(forKey key: UInt64) -> UInt64? {
    slots.withUnsafeBufferPointer { slots in
      var index = Self.start(of: key, capacity: slots.count)
      while true {
        let word = slots[index]
        if word == 0 { return nil }
        if Keying.key(of: word) == key { return word }
        index += 1
        if index == slots.count { index = 0 }
      }
    }
  }

  /// Stores `word` (nonzero), replacing the word of the same key if there is one.
  mutating func store(_ word: UInt64) {
    precondition(word != 0, "the empty word cannot be stored")
    if (count + 1) * 5 > slots.count * 4 { grow() }
    if Self.place(word, in: &slots) { count += 1 }
  }

  /// The bytes the table holds.
  var bytes: Int { slots.capacity * MemoryLayout<UInt64>.stride }

  /// Places `word` in `slots` (which have room): true when it took an empty slot, false when it
  /// replaced the word of its key.
  private static func place(_ word: UInt64, in slots: inout [UInt64]) -> Bool {
    let key = Keying.key(of: word)
    return slots.withUnsafeMutableBufferPointer { slots in
      var index = start(of: key, capacity: slots.count)
      while true {
        let current = slots[index]
        if current == 0 {
          slots[index] = word
          return true
        }
        if Keying.key(of: current) == key {
          slots[index] = word
          return false
        }
        index += 1
        if index == slots.count { index = 0 }
      }
    }
  }

  private mutating func grow() {
    var larger = [UInt64](repeating: 0, count: slots.count + slots.count / 2)
    for word in slots where word != 0 { _ = Self.place(word, in: &larger) }
    slots = larger
  }

  /// The first slot to try for `key`: its mixed bits scaled to the capacity.
  private static func start(of key: UInt64, capacity: Int) -> Int {
    var mixed = key ^ (key >> 33)
    mixed = mixed &* 0xFF51_AFD7_ED55_8CCD
    mixed ^= mixed >> 33
    return Int(truncatingIfNeeded: mixed.multipliedFullWidth(by: UInt64(capacity)).high)
  }
}

/// A set of 64-bit hashes: the word is its own key. The hash 0 is stored as ``zero``.
enum WholeWord: WordKeying {
  static func key(of word: UInt64) -> UInt64 { word }

  /// What the hash 0 is stored as (the empty slot is 0): a hash equal to this one is then the same
  /// member, which at one chance in 2⁶⁴ only masks one more piece of output.
  static let zero: UInt64 = 0x9E37_79B9_7F4A_7C15
}

extension WordTable where Keying == WholeWord {
  func contains(_ hash: UInt64) -> Bool { word(forKey: hash == 0 ? WholeWord.zero : hash) != nil }

  mutating func insert(_ hash: UInt64) { store(hash == 0 ? WholeWord.zero : hash) }
}

/// A map from a four-byte prefix (the high half of the word) to up to two lengths (the low half).
enum HighHalf: WordKeying {
  static func key(of word: UInt64) -> UInt64 { word >> 32 }
}
