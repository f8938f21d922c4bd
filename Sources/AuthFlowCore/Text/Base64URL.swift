public import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Encoded and decoded byte by byte with lookup tables: tokens are encoded and decoded on every
/// request of the mock and every step of a run, so this stays off Foundation's string search.
public enum Base64URL {
  private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The 6-bit value of each byte of the url alphabet, or `invalid`: the strict table.
  private static let sextets: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()
  /// The lenient table also reads the standard alphabet (`+` is 62, `/` is 63).
  private static let lenientSextets: [UInt8] = {
    var table = sextets
    table[Int(UInt8(ascii: "+"))] = 62
    table[Int(UInt8(ascii: "/"))] = 63
    return table
  }()
  private static let invalid: UInt8 = 0xFF

  public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    if let encoded = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return encoded }
    return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
  }

  private static func encode(buffer input: UnsafeBufferPointer<UInt8>) -> String {
    let count = input.count
    let outputCount = (count / 3) * 4 + [0, 2, 3][count % 3]
    return alphabet.withUnsafeBufferPointer { alphabet in
      String(unsafeUninitializedCapacity: outputCount) { output in
        var read = 0
        var written = 0
        while read + 3 <= count {
          let chunk = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
          output[written] = alphabet[Int(chunk >> 18 & 0x3F)]
          output[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
          output[written + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
          output[written + 3] = alphabet[Int(chunk & 0x3F)]
          read += 3
          written += 4
        }
        switch count - read {
        case 1:
          let chunk = UInt32(input[read]) << 16
          output[written] = alphabet[Int(chunk >> 18 & 0x3F)]
          output[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
          written += 2
        case 2:
          let chunk = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8
          output[written] = alphabet[Int(chunk >> 18 & 0x3F)]
          output[written + 1] = alphabet[Int(chunk >> 12 & 0x3F)]
          output[written + 2] = alphabet[Int(chunk >> 6 & 0x3F)]
          written += 3
        default:
          break
        }
        return written
      }
    }
  }

  /// Decodes base64url text strictly, as RFC 7515 §2 and RFC 4648 §5 require of JOSE: the url
  /// alphabet only (no `+` or `/`), no `=` padding, no whitespace, a length that can be base64 (not
  /// one character past a multiple of four), and the unused bits of the last character zero. So
  /// every byte string has exactly one accepted encoding. Nil otherwise.
  public static func decode(_ text: String) -> Data? {
    var text = text
    return text.withUTF8 { decode(utf8: $0, lenient: false) }
  }

  /// ``decode(_:)-(String)`` of a part of a text (a segment of a compact JWS), without copying it.
  public static func decode(_ text: Substring) -> Data? {
    var text = text
    return text.withUTF8 { decode(utf8: $0, lenient: false) }
  }

  /// Whether `text` is strict base64url (``decode(_:)-(String)`` would give bytes), without decoding it.
  public static func isCanonical(_ text: Substring) -> Bool {
    var text = text
    return text.withUTF8 { input in
      guard input.count % 4 != 1 else { return false }
      var last: UInt8 = 0
      for byte in input {
        last = sextets[Int(byte)]
        if last == invalid { return false }
      }
      // The unused low bits of the last character: 4 of them after 2 characters, 2 after 3.
      switch input.count % 4 {
      case 2: return last & 0x0F == 0
      case 3: return last & 0x03 == 0
      default: return true
      }
    }
  }

  /// Decodes base64url text leniently, for user-facing text only (the `base64url_decode`
  /// expression function), never for a token: up to two trailing `=`, the standard alphabet's `+`
  /// and `/`, and non-zero unused bits are accepted.
  public static func decodeLenient(_ text: String) -> Data? {
    var text = text
    return text.withUTF8 { decode(utf8: $0, lenient: true) }
  }

  private static func decode(utf8 input: UnsafeBufferPointer<UInt8>, lenient: Bool) -> Data? {
    var count = input.count
    var padding = 0
    while lenient, count > 0, padding < 2, input[count - 1] == UInt8(ascii: "=") {
      count -= 1
      padding += 1
    }
    if count % 4 == 1 { return nil }
    var output = Data(count: count / 4 * 3 + max(0, count % 4 - 1))
    let valid = (lenient ? lenientSextets : sextets).withUnsafeBufferPointer { sextets in
      output.withUnsafeMutableBytes { raw -> Bool in
        let bytes = raw.bindMemory(to: UInt8.self)
        var accumulator: UInt32 = 0
        var bits = 0
        var written = 0
        for index in 0..<count {
          let sextet = sextets[Int(input[index])]
          if sextet == invalid { return false }
          accumulator = accumulator << 6 | UInt32(sextet)
          bits += 6
          if bits >= 8 {
            bits -= 8
            bytes[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
            written += 1
          }
        }
        // The bits left over after the last whole byte (2 or 4) must be zero: otherwise several
        // encodings would decode to the same bytes.
        return lenient || accumulator & ((1 << UInt32(bits)) - 1) == 0
      }
    }
    return valid ? output : nil
  }
}
