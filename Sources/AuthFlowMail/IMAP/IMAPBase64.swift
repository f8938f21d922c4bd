/// Standard base64 with padding (RFC 4648 §4), for SASL responses.
enum IMAPBase64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let first = UInt32(bytes[index])
      let second = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
      let third = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
      let group = first << 16 | second << 8 | third
      output.append(alphabet[Int(group >> 18 & 0x3F)])
      output.append(alphabet[Int(group >> 12 & 0x3F)])
      output.append(index + 1 < bytes.count ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
      output.append(index + 2 < bytes.count ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "="))
      index += 3
    }
    return output
  }
}
