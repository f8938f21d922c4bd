import NIOCore

/// Reads SMTP replies (`250-…` lines ending with `250 …`) from a connection's bytes, each line
/// and each reply bounded.
struct SMTPReplyReader {
  struct Reply {
    var code: Int
    var lines: [String]
    var text: String { lines.joined(separator: " / ") }
  }

  /// The longest reply line (RFC 5321 allows 512 octets), and the most lines of one reply.
  static let lineLimit = 4096
  static let lineCountLimit = 100

  private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
  private var buffer: [UInt8] = []

  init(_ iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
    self.iterator = iterator
  }

  mutating func next() async throws -> Reply {
    var lines: [String] = []
    while lines.count < Self.lineCountLimit {
      let line = try await nextLine()
      guard line.count >= 3, let code = Int(line.prefix(3)), (200...599).contains(code) else {
        throw SMTPSendError.malformedReply(String(line.prefix(80)))
      }
      lines.append(line)
      let separator = line.count > 3 ? line[line.index(line.startIndex, offsetBy: 3)] : " "
      if separator != "-" { return Reply(code: code, lines: lines) }
    }
    throw SMTPSendError.malformedReply("a reply of more than \(Self.lineCountLimit) lines")
  }

  private mutating func nextLine() async throws -> String {
    while true {
      if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        var line = Array(buffer[..<end])
        buffer.removeFirst(end + 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard buffer.count <= Self.lineLimit else {
        throw SMTPSendError.malformedReply("a line over \(Self.lineLimit) bytes")
      }
      guard let chunk = try await iterator.next() else {
        throw SMTPSendError.connectionFailed("the server closed the connection")
      }
      buffer.append(contentsOf: chunk.readableBytesView)
    }
  }
}

/// RFC 5321 §4.5.2: a line of the message that starts with `.` gets another; the message ends
/// with `CRLF.CRLF`. Line ends become CRLF.
enum SMTPDotStuffing {
  static func stuffed(_ message: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(message.count + 16)
    var atLineStart = true
    var previous: UInt8 = 0
    for byte in message {
      if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") { out.append(UInt8(ascii: "\r")) }
      if atLineStart, byte == UInt8(ascii: ".") { out.append(UInt8(ascii: ".")) }
      out.append(byte)
      atLineStart = byte == UInt8(ascii: "\n")
      previous = byte
    }
    if !(out.count >= 2 && out[out.count - 2] == UInt8(ascii: "\r") && out[out.count - 1] == UInt8(ascii: "\n")) {
      out += Array("\r\n".utf8)
    }
    return out + Array(".\r\n".utf8)
  }
}
