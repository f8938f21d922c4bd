extension IMAPResponse {
  /// Interprets one frame. Throws `protocolError` for bytes that are not an IMAP response.
  init(parsing frame: IMAPResponseFrame) throws(IMAPError) {
    var scanner = IMAPFrameScanner(frame)
    if scanner.consume(UInt8(ascii: "+")) {
      scanner.skipSpaces()
      self = .continuation(scanner.restOfLine())
      return
    }
    if scanner.consume(UInt8(ascii: "*")) {
      guard scanner.consume(UInt8(ascii: " ")) else { throw .malformed(frame) }
      self = .untagged(try Self.untagged(&scanner, frame))
      return
    }
    let tag = scanner.atom()
    guard !tag.isEmpty, scanner.consume(UInt8(ascii: " ")),
      let status = IMAPStatus(rawValue: scanner.atom().uppercased()),
      [.ok, .no, .bad].contains(status)
    else { throw .malformed(frame) }
    self = .tagged(tag: tag, status: status, text: Self.responseText(&scanner))
  }

  private static func untagged(
    _ scanner: inout IMAPFrameScanner, _ frame: IMAPResponseFrame
  ) throws(IMAPError) -> IMAPUntaggedResponse {
    if let number = scanner.number() {
      guard scanner.consume(UInt8(ascii: " ")) else { throw .malformed(frame) }
      let name = scanner.atom().uppercased()
      guard name == "FETCH" else { return .other(name) }
      scanner.skipSpaces()
      return .fetch(sequence: number, try fetchAttributes(&scanner, frame))
    }
    let name = scanner.atom().uppercased()
    if let status = IMAPStatus(rawValue: name) {
      return .status(status, responseText(&scanner))
    }
    switch name {
    case "CAPABILITY":
      return .capability(capabilities(scanner.restOfLine()))
    case "SEARCH":
      return .search(try searchResults(&scanner, frame))
    case "":
      throw .malformed(frame)
    default:
      return .other(name)
    }
  }

  /// `[CODE arguments] text` or just `text`.
  private static func responseText(_ scanner: inout IMAPFrameScanner) -> IMAPResponseText {
    scanner.skipSpaces()
    let rest = scanner.restOfLine()
    guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]") else {
      return IMAPResponseText(code: nil, text: rest)
    }
    let inside = rest[rest.index(after: rest.startIndex)..<close]
    let text = rest[rest.index(after: close)...].drop { $0 == " " }
    let name = inside.prefix { $0 != " " }.uppercased()
    let arguments = String(inside.dropFirst(name.count).drop { $0 == " " })
    let code: IMAPResponseCode =
      name == "CAPABILITY" ? .capability(capabilities(arguments)) : .other(name: name, arguments: arguments)
    return IMAPResponseText(code: code, text: String(text))
  }

  static func capabilities(_ text: String) -> Set<String> {
    Set(text.split(separator: " ").map { $0.uppercased() })
  }

  /// `1 2 3`, possibly followed by a parenthesised `(MODSEQ n)`.
  private static func searchResults(
    _ scanner: inout IMAPFrameScanner, _ frame: IMAPResponseFrame
  ) throws(IMAPError) -> [UInt32] {
    var numbers: [UInt32] = []
    while true {
      scanner.skipSpaces()
      if scanner.isAtEnd { return numbers }
      if scanner.peek == UInt8(ascii: "(") {
        guard scanner.skipValue() else { throw .malformed(frame) }
        continue
      }
      guard let number = scanner.number(), number > 0 else { throw .malformed(frame) }
      numbers.append(number)
    }
  }

  /// `(UID 7 FLAGS (\Seen) BODY[] {n}…)`: reads UID and the whole-message body, skips the rest.
  private static func fetchAttributes(
    _ scanner: inout IMAPFrameScanner, _ frame: IMAPResponseFrame
  ) throws(IMAPError) -> IMAPFetchAttributes {
    var attributes = IMAPFetchAttributes()
    guard scanner.consume(UInt8(ascii: "(")) else { throw .malformed(frame) }
    while true {
      scanner.skipSpaces()
      if scanner.consume(UInt8(ascii: ")")) { return attributes }
      let name = scanner.atom(bracketed: true).uppercased()
      guard !name.isEmpty, scanner.consume(UInt8(ascii: " ")) else { throw .malformed(frame) }
      switch name {
      case "UID":
        guard let uid = scanner.number() else { throw .malformed(frame) }
        attributes.uid = uid
      case "BODY[]", "BINARY[]", "RFC822":
        guard let body = scanner.nstring() else { throw .malformed(frame) }
        attributes.body = body
      default:
        guard scanner.skipValue() else { throw .malformed(frame) }
      }
    }
  }
}

extension IMAPError {
  static func malformed(_ frame: IMAPResponseFrame) -> IMAPError {
    let line = frame.firstLine
    let shown = line.count > 80 ? line.prefix(80) + "…" : Substring(line)
    let printable = String(shown.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    return IMAPError(.protocolError, "the server sent something that is not an IMAP response: \"\(printable)\"")
  }
}
