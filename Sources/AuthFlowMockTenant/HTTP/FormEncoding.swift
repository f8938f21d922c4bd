/// `application/x-www-form-urlencoded` and query strings.
enum FormEncoding {
  /// Decodes `a=1&b=two+words`; `+` is a space; a bare `flag` has the empty value; the first of
  /// repeated keys wins (see ``decodeChecked(_:)`` for telling them apart).
  static func decode(_ text: String) -> [String: String] {
    decodeChecked(text).values
  }

  /// ``decode(_:)``, and the keys given a value more than once (each once, in the order their
  /// repeat came), for the endpoints where RFC 6749 §3.1 says parameters "MUST NOT be included
  /// more than once" (a repeat is `invalid_request`, RFC 6749 §5.2). A parameter without a value counts as
  /// omitted (RFC 6749 §3.1), so `a=&a=x` is `a=x` and no repeat.
  static func decodeChecked(_ text: String) -> (values: [String: String], repeated: [String]) {
    var result: [String: String] = [:]
    var repeated: [String] = []
    // Split as UTF-8 bytes (`&` and `=` are ASCII: each piece is whole characters).
    for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = pair.firstIndex(of: UInt8(ascii: "="))
      let key = unescape(Substring(pair[..<(equals ?? pair.endIndex)]))
      guard !key.isEmpty else { continue }
      let value = equals.map { unescape(Substring(pair[pair.index(after: $0)...])) } ?? ""
      switch result[key] {
      case nil, ""?: result[key] = value
      case _? where !value.isEmpty && !repeated.contains(key): repeated.append(key)
      default: break
      }
    }
    return (result, repeated)
  }

  /// `+` as a space and `%XX` as its byte. Like Foundation's `removingPercentEncoding`, a `%` not
  /// followed by two hex digits, or escapes that do not make UTF-8, leave the text as it is
  /// (with `+` still a space). Over bytes: this runs for every parameter of every request.
  static func unescape(_ text: some StringProtocol) -> String {
    let utf8 = text.utf8
    guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
    var spaced: [UInt8] = []
    var decoded: [UInt8] = []
    spaced.reserveCapacity(utf8.count)
    decoded.reserveCapacity(utf8.count)
    var valid = true
    var index = utf8.startIndex
    while index != utf8.endIndex {
      let byte = utf8[index]
      index = utf8.index(after: index)
      guard byte == UInt8(ascii: "%") else {
        let plain = byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
        spaced.append(plain)
        decoded.append(plain)
        continue
      }
      spaced.append(byte)
      let second = index == utf8.endIndex ? index : utf8.index(after: index)
      guard valid, second != utf8.endIndex, let high = hexValue(utf8[index]), let low = hexValue(utf8[second]) else {
        valid = false
        continue
      }
      // A `%XX` escape: its three bytes as they are in `spaced`, decoded in `decoded`.
      decoded.append(high << 4 | low)
      spaced.append(utf8[index])
      spaced.append(utf8[second])
      index = utf8.index(after: second)
    }
    if valid, let text = String(validating: decoded, as: UTF8.self) { return text }
    return String(decoding: spaced, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Percent-encodes everything but the unreserved characters (ASCII letters and digits, `-._~`).
  static func escape(_ text: String) -> String {
    let hexDigits = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        output.append(byte)
      default:
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// `a=1&b=2`, in the given order.
  static func encode(_ pairs: [(String, String)]) -> String {
    pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
  }

  /// `base` with `pairs` appended to its query (`?`/`&`) or, for `fragment`, as the fragment.
  static func append(_ pairs: [(String, String)], to base: String, fragment: Bool = false) -> String {
    let encoded = encode(pairs)
    if fragment { return base + "#" + encoded }
    return base + (base.contains("?") ? "&" : "?") + encoded
  }
}
