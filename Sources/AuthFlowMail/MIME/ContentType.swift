/// A parsed `Content-Type` (or `Content-Disposition`) value: a lowercased token and its parameters.
struct ContentType: Sendable, Hashable {
  /// The media type, lowercased, such as `text/plain`; for a disposition, `inline` or `attachment`.
  var value: String
  /// Parameters by lowercased name, values unquoted.
  var parameters: [String: String]

  /// The default of RFC 2045 §5.2.
  static let textPlain = ContentType(value: "text/plain", parameters: ["charset": "us-ascii"])
  /// The default inside `multipart/digest`.
  static let messageRFC822 = ContentType(value: "message/rfc822", parameters: [:])

  var isMultipart: Bool { value.hasPrefix("multipart/") }
  var charset: String? { parameters["charset"] }
  var boundary: String? { parameters["boundary"].flatMap { $0.isEmpty ? nil : $0 } }

  /// Parses `type/subtype; name=value; name="quoted \" value"`, leniently: bad parameters are skipped.
  init(parsing text: String) {
    var scalars = Substring(text).unicodeScalars[...]
    func skipSpace() {
      while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
    }
    func token(stoppingAt stops: Set<Unicode.Scalar>) -> String {
      var result = String.UnicodeScalarView()
      while let first = scalars.first, !stops.contains(first) {
        result.append(first)
        scalars.removeFirst()
      }
      return String(result).trimmingSpace()
    }
    self.value = token(stoppingAt: [";"]).lowercased()
    var parameters: [String: String] = [:]
    while scalars.first == ";" {
      scalars.removeFirst()
      skipSpace()
      let name = token(stoppingAt: ["=", ";"]).lowercased()
      guard scalars.first == "=" else { continue }
      scalars.removeFirst()
      skipSpace()
      var value: String
      if scalars.first == "\"" {
        scalars.removeFirst()
        var quoted = String.UnicodeScalarView()
        while let first = scalars.popFirst(), first != "\"" {
          if first == "\\", let escaped = scalars.popFirst() {
            quoted.append(escaped)
          } else {
            quoted.append(first)
          }
        }
        value = String(quoted)
        _ = token(stoppingAt: [";"])
      } else {
        value = token(stoppingAt: [";"])
      }
      if !name.isEmpty, parameters[name] == nil {
        if name.hasSuffix("*"), let decoded = Self.extendedValue(value) {
          parameters[String(name.dropLast())] = decoded
          value = decoded
        }
        parameters[name] = value
      }
    }
    self.parameters = parameters
  }

  init(value: String, parameters: [String: String]) {
    self.value = value
    self.parameters = parameters
  }

  /// An RFC 2231 `charset'language'percent-encoded` value.
  private static func extendedValue(_ text: String) -> String? {
    let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
    guard pieces.count == 3 else { return nil }
    var bytes: [UInt8] = []
    var utf8 = Array(pieces[2].utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2, let high = MIMEBytes.hexValue(utf8[utf8.startIndex]),
        let low = MIMEBytes.hexValue(utf8[utf8.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        utf8.removeFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return Charset(named: String(pieces[0])).decode(bytes)
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs, CRs and LFs.
  func trimmingSpace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[start...end])
  }
}
