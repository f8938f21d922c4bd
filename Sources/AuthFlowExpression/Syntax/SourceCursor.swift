/// A position in UTF-8 text that also counts unicode scalars, the unit of every offset the
/// language reports. The lexer reads bytes (fast, and identifiers and operators are ASCII) while
/// errors and spans stay in scalars, as libyaml counts columns.
struct SourceCursor {
  let bytes: [UInt8]
  /// Byte index of the next byte to read.
  private(set) var byte: Int
  /// Scalar offset of `byte` from the start of the text.
  private(set) var scalar: Int

  init(bytes: [UInt8], byte: Int = 0, scalar: Int = 0) {
    self.bytes = bytes
    self.byte = byte
    self.scalar = scalar
  }

  var isAtEnd: Bool { byte >= bytes.count }

  /// The byte `ahead` bytes on, or nil past the end.
  func peek(_ ahead: Int = 0) -> UInt8? {
    let index = byte + ahead
    return index < bytes.count ? bytes[index] : nil
  }

  /// Moves past `count` bytes, counting the scalars that start among them.
  mutating func advance(_ count: Int = 1) {
    for _ in 0..<count where byte < bytes.count {
      if bytes[byte] & 0xC0 != 0x80 { scalar += 1 }
      byte += 1
    }
  }

  /// Moves past the whole scalar at the cursor and returns it (for messages and non-ASCII text).
  mutating func advanceScalar() -> Unicode.Scalar? {
    guard byte < bytes.count else { return nil }
    let start = byte
    advance()
    while let next = peek(), next & 0xC0 == 0x80 { advance() }
    return String(decoding: bytes[start..<byte], as: UTF8.self).unicodeScalars.first
  }

  /// The text between two byte indices.
  func text(from start: Int, to end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
