/// Encodes a string argument (RFC 3501 `astring`) as a quoted string, or as a literal when its
/// bytes cannot be quoted.
enum IMAPArgument {
  /// `"…"` with `\` and `"` escaped when every byte is printable 7-bit ASCII; otherwise a
  /// literal (CR, LF, other controls, or 8-bit bytes).
  static func string(_ bytes: [UInt8]) -> [IMAPCommand.Part] {
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return [.literal(bytes)] }
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    for byte in bytes {
      if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { quoted.append(UInt8(ascii: "\\")) }
      quoted.append(byte)
    }
    quoted.append(UInt8(ascii: "\""))
    return [.text(quoted)]
  }
}
