/// RFC 2047 encoded-words in header values: `=?charset?B?…?=` and `=?charset?Q?…?=`.
enum EncodedWords {
  /// `text` with every well-formed encoded-word decoded; whitespace between two adjacent
  /// encoded-words is dropped, and malformed ones are left as written.
  static func decode(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.count >= 8, text.contains("=?") else { return text }
    var output = ""
    var literalStart = 0
    var lastEncodedEnd: Int?
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "="), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"),
        let (decoded, end) = word(bytes, at: index)
      else {
        index += 1
        continue
      }
      let between = bytes[literalStart..<index]
      if lastEncodedEnd != literalStart || !between.allSatisfy(MIMEBytes.isSpace) {
        output += String(decoding: between, as: UTF8.self)
      }
      output += decoded
      index = end
      literalStart = end
      lastEncodedEnd = end
    }
    output += String(decoding: bytes[literalStart...], as: UTF8.self)
    return output
  }

  /// The decoded text and end index of the encoded-word starting at `start`, or `nil`.
  private static func word(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
    // An encoded-word is at most 75 characters (RFC 2047 §2); allow slack, but bound the scan.
    let limit = min(bytes.count, start + 256)
    var cursor = start + 2
    guard let charsetEnd = bytes[cursor..<limit].firstIndex(where: { $0 == UInt8(ascii: "?") || $0 <= 32 }),
      bytes[charsetEnd] == UInt8(ascii: "?")
    else { return nil }
    let charsetName = String(decoding: bytes[cursor..<charsetEnd], as: UTF8.self)
    cursor = charsetEnd + 1
    guard cursor + 1 < limit, bytes[cursor + 1] == UInt8(ascii: "?") else { return nil }
    let encoding = bytes[cursor] | 0x20
    cursor += 2
    var end = cursor
    while end + 1 < limit, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: "=")) {
      if MIMEBytes.isSpace(bytes[end]) { return nil }
      end += 1
    }
    guard end + 1 < limit else { return nil }
    let payload = bytes[cursor..<end]
    let decoded: [UInt8]
    switch encoding {
    case UInt8(ascii: "b"): decoded = TransferEncoding.decodeBase64(payload)
    case UInt8(ascii: "q"): decoded = decodeQ(payload)
    default: return nil
    }
    // `charset*language` (RFC 2231 §5).
    let charset = charsetName.split(separator: "*", maxSplits: 1).first.map(String.init) ?? charsetName
    return (Charset(named: charset).decode(decoded), end + 2)
  }

  private static func decodeQ(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "_") {
        output.append(32)
      } else if byte == UInt8(ascii: "="), index + 2 < bytes.endIndex,
        let high = MIMEBytes.hexValue(bytes[index + 1]), let low = MIMEBytes.hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 2
      } else {
        output.append(byte)
      }
      index += 1
    }
    return output
  }
}
