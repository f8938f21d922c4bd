/// Reads tokens from an ``IMAPResponseFrame``, stepping over each `{n}` into its literal and on
/// to the next line.
struct IMAPFrameScanner {
  private let frame: IMAPResponseFrame
  private var line = 0
  private var offset = 0

  init(_ frame: IMAPResponseFrame) {
    self.frame = frame
  }

  private var bytes: [UInt8] { frame.lines[line] }

  /// The next byte of the current line, or nil at its end.
  var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  var isAtEnd: Bool { peek == nil && line == frame.lines.count - 1 }

  mutating func advance() { offset += 1 }

  /// Consumes `byte` if it is next.
  mutating func consume(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    offset += 1
    return true
  }

  mutating func skipSpaces() {
    while peek == UInt8(ascii: " ") { offset += 1 }
  }

  /// The rest of the current line as text.
  mutating func restOfLine() -> String {
    let text = String(decoding: bytes[min(offset, bytes.count)...], as: UTF8.self)
    offset = bytes.count
    return text
  }

  /// An atom: bytes up to a space, a parenthesis, a quote, a brace or the end of the line.
  /// `[` … `]` is read whole when `bracketed` is set (`BODY[HEADER.FIELDS (TO)]`).
  mutating func atom(bracketed: Bool = false) -> String {
    let start = offset
    while let byte = peek {
      if byte == UInt8(ascii: "[") && bracketed {
        while let inner = peek, inner != UInt8(ascii: "]") { offset += 1 }
        offset += 1
        continue
      }
      if Self.atomTerminators.contains(byte) || byte < 0x20 || byte == 0x7F { break }
      offset += 1
    }
    return String(decoding: bytes[start..<min(offset, bytes.count)], as: UTF8.self)
  }

  private static let atomTerminators: Set<UInt8> = Set(" ()\"{".utf8)

  /// A non-negative 32-bit number, or nil (nothing consumed) if none is next.
  mutating func number() -> UInt32? {
    var value: UInt64 = 0
    var index = offset
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
      value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
      if value > UInt64(UInt32.max) { return nil }
      index += 1
    }
    guard index > offset else { return nil }
    offset = index
    return UInt32(value)
  }

  /// A quoted string, a literal or `NIL`; nil (nothing consumed) if none is next.
  mutating func nstring() -> [UInt8]?? {
    switch peek {
    case UInt8(ascii: "\""): return quoted()
    case UInt8(ascii: "{"): return literal()
    default:
      let start = offset
      if atom().uppercased() == "NIL" { return .some(nil) }
      offset = start
      return nil
    }
  }

  /// A quoted string with `\"` and `\\` unescaped; nil if it does not close on this line.
  mutating func quoted() -> [UInt8]? {
    guard consume(UInt8(ascii: "\"")) else { return nil }
    var value: [UInt8] = []
    while let byte = peek {
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): return value
      case UInt8(ascii: "\\"):
        guard let escaped = peek else { return nil }
        value.append(escaped)
        offset += 1
      default: value.append(byte)
      }
    }
    return nil
  }

  /// The literal whose `{n}` ends the current line; afterwards the scanner is at the start of the
  /// next line. Nil (nothing consumed) if no literal is announced here.
  mutating func literal() -> [UInt8]? {
    guard peek == UInt8(ascii: "{"), line < frame.literals.count,
      (try? IMAPResponseFramer.literalSize(atEndOf: Array(bytes[offset...]), limit: Int.max)) != nil
    else { return nil }
    let value = frame.literals[line]
    line += 1
    offset = 0
    return value
  }

  /// Steps over one value of any shape: an atom, a number, a string, a literal or a
  /// parenthesised list of them. Returns false on bytes that are none of these.
  mutating func skipValue() -> Bool {
    switch peek {
    case UInt8(ascii: "("):
      offset += 1
      while true {
        skipSpaces()
        if consume(UInt8(ascii: ")")) { return true }
        guard peek != nil, skipValue() else { return false }
      }
    case UInt8(ascii: "\""): return quoted() != nil
    case UInt8(ascii: "{"): return literal() != nil
    case nil: return false
    default: return !atom(bracketed: true).isEmpty
    }
  }
}
