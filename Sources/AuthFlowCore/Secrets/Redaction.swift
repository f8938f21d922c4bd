import Foundation
import Synchronization

/// How secrets are hidden in every output.
public enum Redaction {
  /// What a secret is replaced with.
  public static let mask = "***"
}

/// Every secret text a run has seen, so that outputs built from free text (HTTP traces, error
/// messages, URLs with a `code=` in them) can be scrubbed as a last line of defence.
///
/// Shared by the concurrent steps of a run. Scrubbing is on every output's path, so the patterns
/// (each secret and its percent-encoded form, longest first) are prepared once per registration
/// and searched as UTF-8 bytes. Base64 forms are not kept as patterns: the scan decodes the text
/// where it could be base64 and looks the decoded bytes up among the secrets themselves.
public final class SecretRegistry: Sendable {
  /// Every pattern a scan looks for, and where to look: a run registers every token, code and
  /// cookie it receives — several a scenario — and keeps them all (a secret learnt in the first
  /// scenario may be quoted by the ten-thousandth), so this is kept small: one word a pattern in
  /// each of two tables (``WordTable``, a fifth of a word spare on average), and one pattern a
  /// secret unless its text forms differ (docs/benchmarks.md).
  private struct State {
    /// The hash of each pattern (its bytes and its length, ``key(_:)``): hashes, not the patterns,
    /// so the texts are not kept twice. Two different texts sharing a 64-bit hash would only mask
    /// one more piece of output.
    var hashes = WordTable<WholeWord>()
    /// The byte lengths of the patterns that start with each four bytes, longest first: the
    /// prefix and up to two lengths of up to 65,535 bytes in one word (``PackedLengths``); a
    /// prefix with more (a JWT's `eyJh`) or a longer pattern is in ``longStarts``.
    var starts = WordTable<HighHalf>()
    var longStarts: [UInt32: [Int]] = [:]
    /// One bit per first two bytes of any pattern (65,536 bits): the scan's cheap first test, so
    /// that most positions of a text cost one bit read, whatever the number of secrets.
    var pairs = [UInt64](repeating: 0, count: 1024)
    /// The shortest pattern length (0 when there is none).
    var shortest = 0
    /// How many distinct secrets were registered.
    var count = 0

    /// The packed lengths of the patterns starting with `prefix` (``PackedLengths``), or nil.
    func packedLengths(startingWith prefix: UInt32) -> UInt32? {
      starts.word(forKey: UInt64(prefix)).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The lengths of the patterns starting with `prefix`, longest first.
    func lengths(startingWith prefix: UInt32) -> [Int] {
      guard let packed = packedLengths(startingWith: prefix) else { return [] }
      return packed == PackedLengths.spilled ? longStarts[prefix] ?? [] : PackedLengths.unpack(packed)
    }

    mutating func add(length: Int, prefix: UInt32) {
      var lengths = self.lengths(startingWith: prefix)
      guard !lengths.contains(length) else { return }
      lengths.append(length)
      lengths.sort(by: >)
      let packed: UInt32
      if let fitting = PackedLengths.pack(lengths) {
        packed = fitting
      } else {
        packed = PackedLengths.spilled
        longStarts[prefix] = lengths
      }
      starts.store(UInt64(prefix) << 32 | UInt64(packed))
    }

    /// The memory the patterns take, roughly: what the tables hold (for the benchmarks' notes).
    var approximateBytes: Int {
      hashes.bytes + starts.bytes + longStarts.values.reduce(0) { $0 + 32 + $1.count * 8 }
    }
  }

  /// Up to two pattern lengths in 32 bits, 16 bits each, longest first in the high half (a low
  /// half of 0: one length). Never 0, as a stored word's low half must not be.
  enum PackedLengths {
    /// The lengths of a prefix that are in ``State/longStarts``: no two lengths pack to it, the
    /// first being longer than the second.
    static let spilled: UInt32 = 0xFFFF_FFFF

    /// `lengths` (longest first, distinct) packed, or nil when they do not fit.
    static func pack(_ lengths: [Int]) -> UInt32? {
      guard (1...2).contains(lengths.count), lengths.allSatisfy({ $0 > 0 && $0 <= 0xFFFF }) else { return nil }
      return UInt32(lengths[0]) << 16 | (lengths.count == 2 ? UInt32(lengths[1]) : 0)
    }

    static func unpack(_ packed: UInt32) -> [Int] {
      let second = Int(packed & 0xFFFF)
      return second == 0 ? [Int(packed >> 16)] : [Int(packed >> 16), second]
    }
  }

  private let state = Mutex<State>(State())
  /// When true (`--show-secrets`), `scrub` returns its input unchanged.
  public let revealSecrets: Bool

  public init(revealSecrets: Bool = false) {
    self.revealSecrets = revealSecrets
  }

  /// A registry that knows every secret this one knows now, and learns on its own from here: a
  /// long-running service gives each run one (the profiles' secrets known, each run's tokens and
  /// codes forgotten with the run), so its memory stays flat.
  public func copy() -> SecretRegistry {
    let copy = SecretRegistry(revealSecrets: revealSecrets)
    let snapshot = state.withLock { $0 }
    copy.state.withLock { $0 = snapshot }
    return copy
  }

  /// Records a secret text. Texts shorter than four characters are not recorded: scrubbing them
  /// would mangle unrelated output, and they are redacted structurally wherever they are values.
  public func register(_ text: String) {
    let raw = Array(text.utf8)
    guard raw.count >= 4, raw.count >= 16 || text.count >= 4 else { return }
    let rawKey = Self.key(raw[...])
    let known = state.withLock { $0.hashes.contains(rawKey) }
    guard !known else { return }
    var forms = [(raw, rawKey)]
    for encoded in Self.textForms(of: raw) where encoded != raw && encoded.count >= 4 {
      forms.append((encoded, Self.key(encoded[...])))
    }
    state.withLock { state in
      guard !state.hashes.contains(rawKey) else { return }
      state.count += 1
      for (pattern, key) in forms {
        state.hashes.insert(key)
        state.add(length: pattern.count, prefix: Self.prefix(of: pattern, at: 0))
        let pair = Int(pattern[0]) << 8 | Int(pattern[1])
        state.pairs[pair >> 6] |= 1 << UInt64(pair & 63)
        state.shortest = state.shortest == 0 ? pattern.count : min(state.shortest, pattern.count)
      }
    }
  }

  /// Whether `text` was registered as a secret.
  public func contains(_ text: String) -> Bool {
    let raw = Array(text.utf8)
    return state.withLock { $0.hashes.contains(Self.key(raw[...])) }
  }

  /// How many distinct secrets were registered.
  public var count: Int { state.withLock { $0.count } }

  /// Roughly how many bytes the registered patterns take (the benchmarks report it per scenario).
  public var approximateBytes: Int { state.withLock { $0.approximateBytes } }

  /// How many patterns the scan looks for: one per secret, more for a secret whose text forms
  /// differ from it.
  var patternCount: Int { state.withLock { $0.hashes.count } }

  /// Records every secret inside `value`.
  public func register(secretsIn value: Value) {
    switch value {
    case .secret(let inner): registerAll(inner)
    case .jwt(let token): register(token.raw)
    case .array(let items): items.forEach { register(secretsIn: $0) }
    case .object(let members): members.values.forEach { register(secretsIn: $0) }
    default: break
    }
  }

  private func registerAll(_ value: Value) {
    switch value {
    case .string(let text): register(text)
    case .int(let number): register(String(number))
    case .jwt(let token): register(token.raw)
    case .secret(let inner): registerAll(inner)
    case .array(let items): items.forEach(registerAll)
    case .object(let members): members.values.forEach(registerAll)
    default: break
    }
  }

  /// Replaces every known secret in `text` with the mask, including its encoded forms (percent,
  /// JSON, HTML, base64 and base64url).
  ///
  /// One pass over the text finds every occurrence of every pattern, whatever their number: each
  /// position costs a bit read (the first two bytes), and only where a pattern starts with the
  /// same four bytes are the lengths that do hashed. Every byte of every occurrence is masked —
  /// overlapping occurrences (a secret inside a longer one, or two that overlap) become one mask —
  /// so no part of a secret is left visible.
  ///
  /// The scan runs under the registry's lock, reading the tables in place: a copy for it (taken
  /// while another task registers a secret) would copy every table, which at tens of thousands
  /// of patterns costs more than the scan.
  public func scrub(_ text: String) -> String {
    if revealSecrets { return text }
    return state.withLock { state in Self.scrub(text, in: state) }
  }

  private static func scrub(_ text: String, in state: State) -> String {
    let shortest = state.shortest
    guard shortest > 0, text.utf8.count >= shortest else { return text }
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    var copiedUpTo = 0
    // The occurrence being masked: from `maskStart` to `maskEnd`, still growing while later
    // occurrences overlap it.
    var maskStart = -1
    var maskEnd = 0
    let mask = Array(Redaction.mask.utf8)
    var index = 0
    while index + shortest <= bytes.count {
      defer { index += 1 }
      // The longest pattern that starts here, as it is or in base64, covers the shorter ones
      // that start here too.
      let length = max(
        Self.longestMatch(in: bytes, at: index, state: state),
        Self.longestBase64Match(in: bytes, at: index, state: state))
      guard length > 0 else { continue }
      if maskStart >= 0, index < maskEnd {
        maskEnd = max(maskEnd, index + length)
      } else {
        if maskStart >= 0 {
          output.append(contentsOf: bytes[copiedUpTo..<maskStart])
          output.append(contentsOf: mask)
          copiedUpTo = maskEnd
        }
        maskStart = index
        maskEnd = index + length
      }
    }
    guard maskStart >= 0 else { return text }
    output.append(contentsOf: bytes[copiedUpTo..<maskStart])
    output.append(contentsOf: mask)
    output.append(contentsOf: bytes[maskEnd...])
    return String(decoding: output, as: UTF8.self)
  }

  /// The length of the longest pattern at `index`, or 0.
  private static func longestMatch(in bytes: [UInt8], at index: Int, state: State) -> Int {
    let pair = Int(bytes[index]) << 8 | Int(bytes[index + 1])
    guard state.pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { return 0 }
    let prefix = Self.prefix(of: bytes, at: index)
    guard let packed = state.packedLengths(startingWith: prefix) else { return 0 }
    if packed == PackedLengths.spilled {
      for candidate in state.longStarts[prefix] ?? []
      where index + candidate <= bytes.count && state.hashes.contains(Self.key(bytes[index..<(index + candidate)])) {
        return candidate
      }
      return 0
    }
    // The longer length first; the shorter is 0 when there is one length.
    let longer = Int(packed >> 16)
    if index + longer <= bytes.count, state.hashes.contains(Self.key(bytes[index..<(index + longer)])) {
      return longer
    }
    let shorter = Int(packed & 0xFFFF)
    if shorter > 0, index + shorter <= bytes.count, state.hashes.contains(Self.key(bytes[index..<(index + shorter)])) {
      return shorter
    }
    return 0
  }

  /// The length of the text at `index` that is a pattern in base64 or base64url (padding
  /// included when it follows), or 0: the text is decoded and looked up among the patterns, so
  /// base64 forms take no room of their own.
  private static func longestBase64Match(in bytes: [UInt8], at index: Int, state: State) -> Int {
    // Six base64 characters are the first four bytes (and four bits) of what they encode.
    guard index + 6 <= bytes.count else { return 0 }
    var prefix: UInt64 = 0
    for offset in 0..<6 {
      let value = Base64Alphabet.values[Int(bytes[index + offset])]
      guard value < 64 else { return 0 }
      prefix = prefix << 6 | UInt64(value)
    }
    let decoded = UInt32(truncatingIfNeeded: prefix >> 4)
    let pair = Int(decoded >> 16)
    guard state.pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0,
      let packed = state.packedLengths(startingWith: decoded)
    else { return 0 }
    let lengths = packed == PackedLengths.spilled ? state.longStarts[decoded] ?? [] : PackedLengths.unpack(packed)
    for length in lengths {
      let encoded = (4 * length + 2) / 3
      guard index + encoded <= bytes.count, let key = base64Key(bytes, at: index, decodedLength: length),
        state.hashes.contains(key)
      else { continue }
      // `=` padding that follows belongs to the secret's form.
      var end = index + encoded
      let padding = (3 - length % 3) % 3
      while end < bytes.count, end < index + encoded + padding, bytes[end] == UInt8(ascii: "=") { end += 1 }
      return end - index
    }
    return 0
  }

  /// ``key(_:)`` of the `decodedLength` bytes the base64 (or base64url) text at `index` encodes;
  /// nil when a character on the way is not base64.
  private static func base64Key(_ bytes: [UInt8], at index: Int, decodedLength: Int) -> UInt64? {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var bits: UInt32 = 0
    var bitCount = 0
    var produced = 0
    var offset = index
    while produced < decodedLength {
      let value = Base64Alphabet.values[Int(bytes[offset])]
      guard value < 64 else { return nil }
      offset += 1
      bits = bits << 6 | UInt32(value)
      bitCount += 6
      if bitCount >= 8 {
        bitCount -= 8
        hash ^= UInt64((bits >> UInt32(bitCount)) & 0xFF)
        hash = hash &* 0x0000_0100_0000_01B3
        produced += 1
        bits &= (1 << UInt32(bitCount)) - 1
      }
    }
    return hash ^ (UInt64(decodedLength) &* 0x9E37_79B9_7F4A_7C15)
  }

  /// The six-bit value of each byte in base64 and base64url (both alphabets at once), 64 for the
  /// others.
  private enum Base64Alphabet {
    static let values: [UInt8] = {
      var table = [UInt8](repeating: 64, count: 256)
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
      for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
      table[Int(UInt8(ascii: "+"))] = 62
      table[Int(UInt8(ascii: "-"))] = 62
      table[Int(UInt8(ascii: "/"))] = 63
      table[Int(UInt8(ascii: "_"))] = 63
      return table
    }()
  }

  /// The four bytes at `offset` (patterns are at least four bytes long).
  private static func prefix(of bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  /// FNV-1a, 64 bits, with the length mixed in (one table holds the patterns of every length):
  /// stable, and cheap on the short windows scrubbing hashes.
  private static func key(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
  }

  /// The text forms a secret travels in besides its own bytes: in a URL (RFC 3986: `-._~` kept,
  /// space `%20`), in a form body (`*-._` kept, space `+`), inside a JSON string (`"`, `\\` and `/`
  /// escaped; `<>&` as `\u003c`… too), and in HTML text and attributes (`&amp;`, `&lt;`, `&gt;`,
  /// the quotes as entities). (Base64 and base64url, with and without padding, are found by
  /// decoding instead: ``longestBase64Match(in:at:state:)``.)
  ///
  /// Most secrets (tokens, codes: base64url or hex) have no byte any text form changes: then
  /// there is none, and the secret is one pattern.
  private static func textForms(of raw: [UInt8]) -> [[UInt8]] {
    // A handful of forms: kept in an array and compared whole (hashing each as a set element
    // costs a hasher round per byte).
    var forms: [[UInt8]] = []
    func add(_ form: [UInt8]) { if !forms.contains(form) { forms.append(form) } }
    guard raw.contains(where: { !isPlainByte($0) }) else { return forms }
    add(percentEncoded(raw, keeping: "-._~", spaceAsPlus: false))
    add(percentEncoded(raw, keeping: "*-._", spaceAsPlus: true))
    for table in EscapeTable.all { add(table.escaping(raw)) }
    return forms
  }

  /// Whether no text form changes `byte`: ASCII letters and digits, `-`, `.` and `_` (kept by both
  /// percent-encodings, escaped by no JSON or HTML form).
  private static func isPlainByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  /// One escaping of a secret's bytes inside JSON or HTML text, as a 256-entry table (nil: the
  /// byte is kept), built once.
  private struct EscapeTable: Sendable {
    let replacements: [[UInt8]?]

    init(_ pairs: [Character: String]) {
      var table = [[UInt8]?](repeating: nil, count: 256)
      for (character, text) in pairs {
        guard let byte = character.asciiValue else { continue }
        table[Int(byte)] = Array(text.utf8)
      }
      replacements = table
    }

    /// `bytes` with each byte the table names replaced by its text.
    func escaping(_ bytes: [UInt8]) -> [UInt8] {
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count)
      for byte in bytes {
        if let replacement = replacements[Int(byte)] { output += replacement } else { output.append(byte) }
      }
      return output
    }

    /// The JSON forms (`"` and `\\` escaped; `/` too; Go's encoding/json and JavaScript-safe
    /// serialisers: `<`, `>`, `&` as `\u` escapes), `&` as `&amp;`, and the HTML text and attribute
    /// forms: `&<>` always, the quotes as each common escaper writes them (`&quot;`/`&#34;`,
    /// `&#39;`/`&#x27;`/`&#039;`).
    static let all: [EscapeTable] = {
      var tables = [
        EscapeTable(["\\": #"\\"#, "\"": #"\""#]),
        EscapeTable(["\\": #"\\"#, "\"": #"\""#, "/": #"\/"#]),
        EscapeTable(["&": "&amp;"]),
        EscapeTable(["\\": #"\\"#, "\"": #"\""#, "<": #"\u003c"#, ">": #"\u003e"#, "&": #"\u0026"#]),
      ]
      for doubleQuote in ["&quot;", "&#34;"] {
        for singleQuote in ["&#39;", "&#x27;", "&#039;"] {
          tables.append(
            EscapeTable(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": doubleQuote, "'": singleQuote]))
        }
      }
      return tables
    }()
  }

  /// The text percent-encoded: ASCII letters, digits and `keeping` as they are, a space as `+`
  /// when `spaceAsPlus`, every other byte as `%XX`.
  private static func percentEncoded(_ bytes: [UInt8], keeping: String, spaceAsPlus: Bool) -> [UInt8] {
    let hexDigits = Array("0123456789ABCDEF".utf8)
    let kept = Set(keeping.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        output.append(byte)
      case _ where kept.contains(byte):
        output.append(byte)
      case UInt8(ascii: " ") where spaceAsPlus:
        output.append(UInt8(ascii: "+"))
      default:
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return output
  }
}
