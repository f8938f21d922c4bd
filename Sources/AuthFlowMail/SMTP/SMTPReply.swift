/// One SMTP reply: a code and one or more lines of text (RFC 5321 §4.2).
struct SMTPReply: Sendable, Hashable {
  var code: Int
  var lines: [String]

  init(_ code: Int, _ lines: String...) {
    self.code = code
    self.lines = lines
  }

  init(code: Int, lines: [String]) {
    self.code = code
    self.lines = lines.isEmpty ? [""] : lines
  }

  /// The reply as sent: `250-first`, …, `250 last`, each line ending in CRLF.
  var encoded: String {
    var result = ""
    for (index, line) in lines.enumerated() {
      let separator = index == lines.count - 1 ? " " : "-"
      result += "\(code)\(separator)\(line)\r\n"
    }
    return result
  }

  /// Whether the reply rejects a command (counted against ``SMTPConfiguration/maxBadCommands``).
  var isCommandError: Bool {
    [500, 501, 502, 503, 504, 535, 538, 555].contains(code)
  }
}
