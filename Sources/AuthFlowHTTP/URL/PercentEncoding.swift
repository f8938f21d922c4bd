/// Percent-encoding as RFC 3986 and the WHATWG `application/x-www-form-urlencoded` serializer do it.
public enum PercentEncoding {
  /// Encodes every byte except RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`); a space
  /// becomes `%20` and `+` becomes `%2B`, as Auth0.swift builds its query strings.
  public static func encode(_ text: String) -> String {
    encode(text, spaceAsPlus: false) { isUnreserved($0) }
  }

  /// Encodes for `application/x-www-form-urlencoded`: a space becomes `+`, and every byte except
  /// `A-Z a-z 0-9 * - . _` is percent-encoded (so `+` becomes `%2B`).
  public static func formEncode(_ text: String) -> String {
    encode(text, spaceAsPlus: true) { isAlphanumeric($0) || $0 == UInt8(ascii: "*") || isFormMark($0) }
  }

  /// Decodes `%XX` sequences (and `+` as a space when `plusAsSpace`). Malformed escapes are kept as
  /// they are; invalid UTF-8 is replaced.
  public static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String {
    let utf8 = Array(text.utf8)
    guard utf8.contains(UInt8(ascii: "%")) || (plusAsSpace && utf8.contains(UInt8(ascii: "+"))) else {
      return String(text)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
        let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func encode(_ text: String, spaceAsPlus: Bool, keep: (UInt8) -> Bool) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if keep(byte) {
        output.append(byte)
      } else if spaceAsPlus && byte == UInt8(ascii: " ") {
        output.append(UInt8(ascii: "+"))
      } else {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isFormMark(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || isFormMark(byte) || byte == UInt8(ascii: "~")
  }
}
