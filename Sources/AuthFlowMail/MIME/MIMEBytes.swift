/// Byte-level helpers shared by the decoder: line splitting, trimming, header/body separation.
enum MIMEBytes {
  static let cr = UInt8(ascii: "\r")
  static let lf = UInt8(ascii: "\n")

  /// The lines of `bytes` without their CRLF or LF terminators; a final unterminated line is included.
  static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == lf {
        var end = index
        if end > start, bytes[end - 1] == cr { end -= 1 }
        result.append(bytes[start..<end])
        start = index + 1
      }
      index += 1
    }
    if start < bytes.endIndex { result.append(bytes[start..<bytes.endIndex]) }
    return result
  }

  /// Splits an entity into its header section and body at the first empty line.
  ///
  /// Without an empty line, the whole entity is headers when its first line looks like a header
  /// field, and all body otherwise.
  static func splitEntity(_ bytes: ArraySlice<UInt8>) -> (header: ArraySlice<UInt8>, body: ArraySlice<UInt8>) {
    var lineStart = bytes.startIndex
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == lf {
        let line = bytes[lineStart..<index]
        if line.isEmpty || (line.count == 1 && line.first == cr) {
          return (bytes[bytes.startIndex..<lineStart], bytes[(index + 1)...])
        }
        lineStart = index + 1
      }
      index += 1
    }
    if !looksLikeHeader(bytes) { return (bytes[bytes.startIndex..<bytes.startIndex], bytes) }
    return (bytes, bytes[bytes.endIndex...])
  }

  static func looksLikeHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
    for byte in bytes.prefix(80) {
      if byte == UInt8(ascii: ":") { return true }
      if byte <= 32 || byte >= 127 { return false }
    }
    return false
  }

  static func isSpace(_ byte: UInt8) -> Bool {
    byte == 32 || byte == 9 || byte == cr || byte == lf
  }

  static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    return bytes[start..<end]
  }

  /// UTF-8 text, with invalid sequences replaced (header values from SMTPUTF8 clients are UTF-8).
  static func string(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
