import NIOCore

/// Cuts a byte stream into complete responses: a line, and when the line ends with `{n}`, the
/// `n` bytes that follow it and the line after them, and so on.
///
/// Bounded: a line longer than `maxLineBytes`, a literal announced larger than
/// `maxLiteralBytes`, or a response larger than `maxBufferedBytes` is an error as soon as it is
/// seen, before its bytes are buffered.
struct IMAPResponseFramer {
  private enum State {
    case line
    case literal(size: Int)
  }

  private let limits: IMAPConfiguration.Limits
  private var buffer = ByteBuffer()
  private var state = State.line
  /// How far the current line has been searched for LF already.
  private var scanned = 0
  private var lines: [[UInt8]] = []
  private var literals: [[UInt8]] = []
  private var frameBytes = 0

  init(limits: IMAPConfiguration.Limits) {
    self.limits = limits
  }

  /// Bytes received but not yet part of a complete response.
  var bufferedBytes: Int { buffer.readableBytes + frameBytes }

  mutating func append(_ bytes: ByteBuffer) {
    var bytes = bytes
    buffer.writeBuffer(&bytes)
  }

  /// Forgets everything received so far (the plaintext left over when TLS starts).
  mutating func discardAll() {
    buffer.clear()
    state = .line
    scanned = 0
    lines = []
    literals = []
    frameBytes = 0
  }

  /// The next complete response, or nil until more bytes arrive.
  mutating func next() throws(IMAPError) -> IMAPResponseFrame? {
    while true {
      switch state {
      case .line:
        guard let line = try nextLine() else { return nil }
        frameBytes += line.count
        if frameBytes > limits.maxBufferedBytes { throw .responseTooLarge(limit: limits.maxBufferedBytes) }
        lines.append(line)
        if let size = try Self.literalSize(atEndOf: line, limit: limits.maxLiteralBytes) {
          if frameBytes + size > limits.maxBufferedBytes {
            throw .responseTooLarge(limit: limits.maxBufferedBytes)
          }
          state = .literal(size: size)
          continue
        }
        let frame = IMAPResponseFrame(lines: lines, literals: literals)
        lines = []
        literals = []
        frameBytes = 0
        compact()
        return frame
      case .literal(let size):
        guard buffer.readableBytes >= size, let literal = buffer.readBytes(length: size) else { return nil }
        literals.append(literal)
        frameBytes += size
        state = .line
      }
    }
  }

  /// The next line without its CRLF (a bare LF is accepted), or nil if it is not complete yet.
  private mutating func nextLine() throws(IMAPError) -> [UInt8]? {
    let view = buffer.readableBytesView
    let lineFeed = view[(view.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n"))
    guard let lineFeed else {
      scanned = view.count
      if view.count > limits.maxLineBytes { throw .lineTooLong(limit: limits.maxLineBytes) }
      return nil
    }
    let length = lineFeed - view.startIndex
    if length > limits.maxLineBytes { throw .lineTooLong(limit: limits.maxLineBytes) }
    var line = Array(view[view.startIndex..<lineFeed])
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    buffer.moveReaderIndex(forwardBy: length + 1)
    scanned = 0
    return line
  }

  private mutating func compact() {
    if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
  }

  /// The `n` of a `{n}` (or `{n+}`, `~{n}`) that ends `line`, or nil if it does not end with one.
  static func literalSize(atEndOf line: [UInt8], limit: Int) throws(IMAPError) -> Int? {
    guard line.last == UInt8(ascii: "}"), let open = line.lastIndex(of: UInt8(ascii: "{")) else { return nil }
    var digits = line[(open + 1)..<(line.count - 1)]
    if digits.last == UInt8(ascii: "+") { digits = digits.dropLast() }
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    // More digits than any limit can hold: too large, without risking overflow.
    guard digits.count <= 12 else { throw .literalTooLarge(announced: nil, limit: limit) }
    let size = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    if size > limit { throw .literalTooLarge(announced: size, limit: limit) }
    return size
  }
}

extension IMAPError {
  static func lineTooLong(limit: Int) -> IMAPError {
    IMAPError(.limitExceeded, "the server sent a response line longer than \(limit) bytes")
  }

  static func literalTooLarge(announced: Int?, limit: Int) -> IMAPError {
    let size = announced.map { "\($0) bytes" } ?? "more than 10^12 bytes"
    return IMAPError(.limitExceeded, "the server announced a literal of \(size), more than the limit of \(limit)")
  }

  static func responseTooLarge(limit: Int) -> IMAPError {
    IMAPError(.limitExceeded, "the server sent more than \(limit) bytes the client had not asked for or read yet")
  }
}
