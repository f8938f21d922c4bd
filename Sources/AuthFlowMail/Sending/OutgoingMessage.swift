/// A plain-text message as it goes out: headers (the subject RFC 2047-encoded when it is not
/// ASCII), a `text/plain; charset=utf-8` body in quoted-printable, CRLF line ends.
public struct OutgoingMessage: Sendable {
  public var from: String
  public var to: [String]
  public var subject: String
  public var text: String
  /// `Date:` as written (RFC 5322), and `Message-ID:` without brackets.
  public var date: String
  public var messageID: String
  /// Extra header fields (`X-…`), names and values ASCII.
  public var extraHeaders: [(String, String)]

  public init(
    from: String, to: [String], subject: String, text: String, date: String, messageID: String,
    extraHeaders: [(String, String)] = []
  ) {
    self.from = from
    self.to = to
    self.subject = subject
    self.text = text
    self.date = date
    self.messageID = messageID
    self.extraHeaders = extraHeaders
  }

  /// The message's bytes.
  public var bytes: [UInt8] {
    var head = "From: \(Self.clean(from))\r\nTo: \(to.map(Self.clean).joined(separator: ", "))\r\n"
    head += "Subject: \(Self.encodedWord(Self.clean(subject)))\r\nDate: \(Self.clean(date))\r\n"
    head += "Message-ID: <\(Self.clean(messageID))>\r\nMIME-Version: 1.0\r\n"
    head += "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
    for (name, value) in extraHeaders { head += "\(Self.clean(name)): \(Self.clean(value))\r\n" }
    return Array((head + "\r\n").utf8) + QuotedPrintable.encode(Array(text.utf8))
  }

  /// A header value without line ends (no header injection).
  static func clean(_ value: String) -> String {
    String(value.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }

  /// `=?utf-8?B?…?=` for a subject that is not ASCII.
  static func encodedWord(_ text: String) -> String {
    guard !text.utf8.allSatisfy({ $0 < 128 }) else { return text }
    return "=?utf-8?B?" + Base64.encode(Array(text.utf8)) + "?="
  }
}

/// RFC 2045 §6.7 quoted-printable, lines of at most 76 characters, CRLF line ends.
enum QuotedPrintable {
  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    var lineLength = 0
    func emit(_ piece: [UInt8]) {
      if lineLength + piece.count > 75 {
        out += Array("=\r\n".utf8)
        lineLength = 0
      }
      out += piece
      lineLength += piece.count
    }
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\n") {
        // A space or tab before a line end is encoded, so that no transport strips it.
        if let last = out.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t"), lineLength > 0 {
          out.removeLast()
          out += [UInt8(ascii: "="), hex[Int(last >> 4)], hex[Int(last & 15)]]
        }
        out += Array("\r\n".utf8)
        lineLength = 0
      } else if (33...126).contains(byte) && byte != UInt8(ascii: "=") || byte == UInt8(ascii: " ")
        || byte == UInt8(ascii: "\t")
      {
        emit([byte])
      } else {
        emit([UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
      }
      index += 1
    }
    return out.isEmpty || out.suffix(2) == Array("\r\n".utf8) ? out : out + Array("\r\n".utf8)
  }
}

/// Standard base64 (RFC 4648 §4), with padding.
enum Base64 {
  static func encode(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var out = ""
    var index = 0
    while index < bytes.count {
      let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
      let value =
        (UInt32(chunk[0]) << 16) | (chunk.count > 1 ? UInt32(chunk[1]) << 8 : 0)
        | (chunk.count > 2 ? UInt32(chunk[2]) : 0)
      out.append(alphabet[Int((value >> 18) & 63)])
      out.append(alphabet[Int((value >> 12) & 63)])
      out.append(chunk.count > 1 ? alphabet[Int((value >> 6) & 63)] : "=")
      out.append(chunk.count > 2 ? alphabet[Int(value & 63)] : "=")
      index += 3
    }
    return out
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension OutgoingMessage {
  /// A `Date:` value (RFC 5322 §3.3) for `seconds` since 1970, in UTC.
  public static func dateHeader(secondsSince1970 seconds: Double) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
  }
}
