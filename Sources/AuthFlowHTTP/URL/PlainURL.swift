/// An absolute URL of the plainest shape, read from its bytes without Foundation: the URLs a run
/// sends and receives on every request (`http://127.0.0.1:PORT/u/login?state=…`), parsed several
/// times per request (cookies, redirects, pacing) where `URLComponents` was a tenth of the flow's
/// own work.
///
/// The shape: `scheme://host[:port]` then an optional path, query and fragment; the scheme a
/// letter then letters, digits, `+`, `-` or `.`; the host ASCII letters, digits, `.` and `-`; the
/// port one to five digits up to 65535; the rest only RFC 3986's URL characters (unreserved,
/// sub-delims, `:`, `@`, `/`, `?`, a `#` once) and valid `%XX` escapes. Anything else (user info,
/// IPv6, percent-encoded hosts, spaces, non-ASCII) is nil, and the caller parses with
/// `URLComponents` as before: on this shape both read the same parts (`URLPartsTests`).
struct PlainURL: Sendable, Equatable {
  /// Lowercased.
  var scheme: String
  /// Lowercased.
  var host: String
  /// As written.
  var hostAsWritten: Substring
  var port: Int?
  /// As written (percent-encoded); empty when the URL has none.
  var path: String
  /// `scheme://authority` as written, for resolving a reference against it.
  var origin: Substring

  init?(_ url: String) {
    var parsed: PlainURL?
    var contiguous = url
    contiguous.withUTF8 { bytes in parsed = Self.parse(bytes, text: url) }
    guard let parsed else { return nil }
    self = parsed
  }

  private init(scheme: String, host: Substring, port: Int?, path: String, origin: Substring) {
    self.scheme = scheme
    self.host = host.lowercased()
    self.hostAsWritten = host
    self.port = port
    self.path = path
    self.origin = origin
  }

  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, text: String) -> PlainURL? {
    var index = 0
    let count = bytes.count
    // scheme ":" "//"
    guard count > 0, isLetter(bytes[0]) else { return nil }
    while index < count, isSchemeByte(bytes[index]) { index += 1 }
    let schemeEnd = index
    guard index + 2 < count, bytes[index] == colon, bytes[index + 1] == slash, bytes[index + 2] == slash else {
      return nil
    }
    index += 3
    // host [":" port]
    let hostStart = index
    while index < count, isHostByte(bytes[index]) { index += 1 }
    let hostEnd = index
    guard hostEnd > hostStart else { return nil }
    var port: Int?
    if index < count, bytes[index] == colon {
      index += 1
      let portStart = index
      var value = 0
      while index < count, isDigit(bytes[index]), index - portStart < 5 {
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
      }
      guard index > portStart, value <= 65535 else { return nil }
      port = value
    }
    let authorityEnd = index
    guard index == count || bytes[index] == slash || bytes[index] == question || bytes[index] == hash else {
      return nil
    }
    // path, query, fragment: URL characters only, escapes valid, one `#`
    guard let end = pathEnd(of: bytes, from: index) else { return nil }
    let utf8 = text.utf8
    func slice(_ from: Int, _ to: Int) -> Substring {
      Substring(utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
    }
    return PlainURL(
      scheme: String(slice(0, schemeEnd)).lowercased(), host: slice(hostStart, hostEnd),
      port: port, path: String(slice(authorityEnd, end)), origin: slice(0, authorityEnd))
  }

  /// `reference` resolved against this URL when it is an absolute path of the plain shape
  /// (`/u/login?state=…`: no `//`, no `.` or `..` segment, only URL characters): this URL's origin
  /// then the reference, as RFC 3986 §5.2 resolves it. Nil for any other reference, and when the
  /// origin is not lowercase (resolving would normalize it).
  func resolving(absolutePath reference: String) -> String? {
    var reference = reference
    let plain = reference.withUTF8 { Self.isPlainAbsolutePath($0) }
    guard plain, origin.utf8.allSatisfy({ !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
    return origin + reference
  }

  private static func isPlainAbsolutePath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    guard count > 0, bytes[0] == slash, count == 1 || bytes[1] != slash,
      let end = pathEnd(of: bytes, from: 0)
    else { return false }
    // `.` and `..` segments would be removed by resolution.
    var segmentStart = 1
    for index in 1...end where index == end || bytes[index] == slash {
      if isDotSegment(bytes, from: segmentStart, to: index) { return false }
      segmentStart = index + 1
    }
    return true
  }

  /// Where the path that starts at `start` ends (its first `?` or `#`, else the end), when
  /// everything from `start` on is URL characters, valid `%XX` escapes and at most one `#`; nil
  /// otherwise.
  private static func pathEnd(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    let count = bytes.count
    var index = start
    var end: Int?
    var seenHash = false
    while index < count {
      let byte = bytes[index]
      if byte == percent {
        guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return nil }
        index += 3
        continue
      }
      if byte == hash {
        guard !seenHash else { return nil }
        seenHash = true
      } else if !isURLByte(byte) {
        return nil
      }
      if end == nil, byte == question || byte == hash { end = index }
      index += 1
    }
    return end ?? count
  }

  private static func isDotSegment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
    let dot = UInt8(ascii: ".")
    switch end - start {
    case 1: return bytes[start] == dot
    case 2: return bytes[start] == dot && bytes[start + 1] == dot
    default: return false
    }
  }

  private static let colon = UInt8(ascii: ":")
  private static let slash = UInt8(ascii: "/")
  private static let question = UInt8(ascii: "?")
  private static let hash = UInt8(ascii: "#")
  private static let percent = UInt8(ascii: "%")

  private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
  private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
  }
  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: ".")
  }
  private static func isHostByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
  }
  /// Unreserved, sub-delims, `:`, `@`, `/`, `?` (RFC 3986 §2.2, §2.3, §3.3, §3.4).
  private static let urlBytes: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8) {
      table[Int(byte)] = true
    }
    return table
  }()
  private static func isURLByte(_ byte: UInt8) -> Bool { urlBytes[Int(byte)] }
}
