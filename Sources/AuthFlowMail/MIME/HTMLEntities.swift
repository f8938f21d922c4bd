/// HTML character references: the common named ones and every decimal or hexadecimal one.
enum HTMLEntities {
  static func decode(_ text: String) -> String {
    String(decoding: decode(bytes: Array(text.utf8)), as: UTF8.self)
  }

  /// `bytes` with each `&name;`, `&#NNN;` and `&#xHH;` replaced; unknown references stay as written.
  static func decode(bytes: [UInt8]) -> [UInt8] {
    guard bytes.contains(UInt8(ascii: "&")) else { return bytes }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "&"),
        let semicolon = bytes[(index + 1)..<min(bytes.count, index + 34)].firstIndex(of: UInt8(ascii: ";")),
        let scalar = scalar(for: bytes[(index + 1)..<semicolon])
      else {
        output.append(bytes[index])
        index += 1
        continue
      }
      output.append(contentsOf: Array(String(Character(scalar)).utf8))
      index = semicolon + 1
    }
    return output
  }

  private static func scalar(for reference: ArraySlice<UInt8>) -> Unicode.Scalar? {
    let name = String(decoding: reference, as: UTF8.self)
    if name.hasPrefix("#") {
      let digits = name.dropFirst()
      let value: UInt32?
      if digits.first == "x" || digits.first == "X" {
        value = UInt32(digits.dropFirst(), radix: 16)
      } else {
        value = UInt32(digits, radix: 10)
      }
      guard let value, value != 0 else { return nil }
      return Unicode.Scalar(value) ?? Unicode.Scalar(0xFFFD)
    }
    return named[name].flatMap(Unicode.Scalar.init)
  }

  private static let named: [String: UInt32] = [
    "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0x20, "copy": 0xA9, "reg": 0xAE,
    "trade": 0x2122, "hellip": 0x2026, "mdash": 0x2014, "ndash": 0x2013, "lsquo": 0x2018, "rsquo": 0x2019,
    "ldquo": 0x201C, "rdquo": 0x201D, "laquo": 0xAB, "raquo": 0xBB, "bull": 0x2022, "middot": 0xB7,
    "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5, "cent": 0xA2, "sect": 0xA7, "deg": 0xB0, "times": 0xD7,
    "divide": 0xF7, "shy": 0xAD, "zwnj": 0x200C, "zwj": 0x200D, "iexcl": 0xA1, "iquest": 0xBF,
    "auml": 0xE4, "ouml": 0xF6, "uuml": 0xFC, "Auml": 0xC4, "Ouml": 0xD6, "Uuml": 0xDC, "szlig": 0xDF,
    "eacute": 0xE9, "egrave": 0xE8, "ecirc": 0xEA, "aacute": 0xE1, "agrave": 0xE0, "acirc": 0xE2,
    "ccedil": 0xE7, "ntilde": 0xF1, "oacute": 0xF3, "iacute": 0xED, "uacute": 0xFA, "Eacute": 0xC9,
  ]
}
