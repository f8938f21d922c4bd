/// `Content-Transfer-Encoding` decoders: identity, quoted-printable and base64, all lenient and linear.
enum TransferEncoding: Sendable, Hashable {
  case identity
  case quotedPrintable
  case base64

  /// The encoding named by a header value; unknown names (and `7bit`, `8bit`, `binary`) are identity.
  init(named name: String?) {
    switch name?.trimmingSpace().lowercased() {
    case "quoted-printable": self = .quotedPrintable
    case "base64": self = .base64
    default: self = .identity
    }
  }

  func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    switch self {
    case .identity: Array(bytes)
    case .quotedPrintable: Self.decodeQuotedPrintable(bytes)
    case .base64: Self.decodeBase64(bytes)
    }
  }

  /// Quoted-printable (RFC 2045 §6.7): `=XX` escapes and soft line breaks (`=` ending a line,
  /// trailing whitespace allowed); a malformed `=` is kept literally.
  static func decodeQuotedPrintable(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "=") else {
        output.append(byte)
        index += 1
        continue
      }
      if index + 2 < bytes.endIndex, let high = MIMEBytes.hexValue(bytes[index + 1]),
        let low = MIMEBytes.hexValue(bytes[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      }
      // A soft line break: `=`, optional spaces or tabs, then CRLF, LF or the end.
      var probe = index + 1
      while probe < bytes.endIndex, bytes[probe] == 32 || bytes[probe] == 9 { probe += 1 }
      if probe == bytes.endIndex {
        index = probe
      } else if bytes[probe] == MIMEBytes.lf {
        index = probe + 1
      } else if bytes[probe] == MIMEBytes.cr, probe + 1 < bytes.endIndex, bytes[probe + 1] == MIMEBytes.lf {
        index = probe + 2
      } else {
        output.append(byte)
        index += 1
      }
    }
    return output
  }

  /// Base64 (RFC 2045 §6.8): characters outside the alphabet are skipped, decoding stops at `=`,
  /// and missing padding is tolerated.
  static func decodeBase64(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var output: [UInt8] = []
    var accumulator: UInt32 = 0
    var bits = 0
    for byte in bytes {
      if byte == UInt8(ascii: "=") { break }
      let value = base64Table[Int(byte)]
      if value == 0xFF { continue }
      accumulator = (accumulator << 6) | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    return output
  }

  /// Decodes strictly: `nil` unless every character is in the alphabet, with correct padding.
  static func decodeBase64Strict(_ text: String) -> [UInt8]? {
    let bytes = Array(text.utf8)
    guard bytes.count % 4 == 0 else { return nil }
    let body = bytes.prefix { $0 != UInt8(ascii: "=") }
    let padding = bytes.count - body.count
    guard padding <= 2, bytes[body.count...].allSatisfy({ $0 == UInt8(ascii: "=") }) else { return nil }
    guard body.allSatisfy({ base64Table[Int($0)] != 0xFF }) else { return nil }
    return decodeBase64(body)
  }

  /// Encodes `bytes` with the standard alphabet and padding.
  static func encodeBase64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      var value: UInt32 = 0
      for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - offset * 8) }
      for position in 0..<4 {
        if position <= chunk.count {
          output.append(alphabet[Int((value >> UInt32(18 - position * 6)) & 0x3F)])
        } else {
          output.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static let base64Table: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      table[Int(byte)] = UInt8(index)
    }
    // The URL-safe alphabet too, which some generators emit.
    table[Int(UInt8(ascii: "-"))] = 62
    table[Int(UInt8(ascii: "_"))] = 63
    return table
  }()
}
