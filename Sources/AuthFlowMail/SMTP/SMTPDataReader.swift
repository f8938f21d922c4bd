/// The message text of one `DATA` phase, line by line: dot-unstuffing, the end marker, and the
/// size limit enforced while reading (an oversized message is read to its end but not kept).
struct SMTPDataReader: Sendable {
  /// How the `DATA` phase ended.
  enum Result: Sendable, Hashable {
    case message([UInt8])
    case tooLarge
    case lineTooLong
  }

  let limit: Int
  private var bytes: [UInt8] = []
  private var size = 0
  private var lineTooLong = false
  /// Whether the line before ended with CRLF; the `DATA` command line counts as one.
  private var previousEndedWithCRLF = true

  init(limit: Int) {
    self.limit = limit
  }

  /// Adds a line (without its line break); returns the result once the line is the lone `.`.
  ///
  /// Only `CRLF . CRLF` ends the data: a `.` line next to a bare LF is text, so that a message
  /// cannot end differently here than at another server reading the same bytes (SMTP smuggling).
  mutating func append(line: some Collection<UInt8>, endedWithCRLF: Bool) -> Result? {
    defer { previousEndedWithCRLF = endedWithCRLF }
    var content = line[...]
    if content.first == UInt8(ascii: ".") {
      if content.count == 1, endedWithCRLF, previousEndedWithCRLF { return result }
      content = content.dropFirst()
    }
    size += content.count + 2
    guard size <= limit, !lineTooLong else {
      bytes = []
      return nil
    }
    bytes.append(contentsOf: content)
    bytes.append(contentsOf: [MIMEBytes.cr, MIMEBytes.lf])
    return nil
  }

  /// Records a line over the text line limit: the message will be refused at its end.
  mutating func markLineTooLong() {
    lineTooLong = true
    bytes = []
  }

  private var result: Result {
    if lineTooLong { return .lineTooLong }
    return size > limit ? .tooLarge : .message(bytes)
  }
}
