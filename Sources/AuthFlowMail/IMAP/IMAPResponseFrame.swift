/// One complete server response as it came off the wire: its text lines and the literals
/// between them.
///
/// `lines[i]` for every `i < literals.count` ends with the `{n}` that announced `literals[i]`;
/// the response goes on in `lines[i + 1]`. Line ends (CRLF) are removed.
struct IMAPResponseFrame: Sendable, Hashable {
  var lines: [[UInt8]]
  var literals: [[UInt8]]

  /// The bytes the frame holds, for the buffering limit.
  var byteCount: Int {
    lines.reduce(0) { $0 + $1.count } + literals.reduce(0) { $0 + $1.count }
  }

  /// The first line as text, for messages and for responses that carry no literal.
  var firstLine: String { String(decoding: lines.first ?? [], as: UTF8.self) }
}
