/// One command to send: its name for messages, and its arguments as text and literals.
///
/// Built only through the static factories below, so every argument is quoted or sent as a
/// literal as its bytes require.
struct IMAPCommand: Sendable {
  /// A piece of the command line after the tag.
  enum Part: Sendable, Hashable {
    case text([UInt8])
    /// Sent as `{n}` CRLF, then (after the server's `+`, or at once with LITERAL+) the bytes.
    case literal([UInt8])
    /// The rest of the command is sent only after the server's `+` (an `AUTHENTICATE`
    /// response without SASL-IR).
    case awaitContinuation
  }

  /// The command's name for messages (`LOGIN`); never carries arguments.
  let name: String
  let parts: [Part]

  /// The chunks to write: every chunk but the last is followed by a wait for `+`.
  func chunks(tag: String, literalPlus: Bool) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var current = Array(tag.utf8) + [UInt8(ascii: " ")]
    for part in parts {
      switch part {
      case .text(let bytes):
        current += bytes
      case .literal(let bytes):
        current += Array("{\(bytes.count)\(literalPlus ? "+" : "")}\r\n".utf8)
        if !literalPlus {
          chunks.append(current)
          current = []
        }
        current += bytes
      case .awaitContinuation:
        chunks.append(current + Array("\r\n".utf8))
        current = []
      }
    }
    chunks.append(current + Array("\r\n".utf8))
    return chunks
  }
}

extension IMAPCommand {
  static let capability = IMAPCommand(name: "CAPABILITY", parts: [.text(Array("CAPABILITY".utf8))])
  static let startTLS = IMAPCommand(name: "STARTTLS", parts: [.text(Array("STARTTLS".utf8))])
  static let noop = IMAPCommand(name: "NOOP", parts: [.text(Array("NOOP".utf8))])
  static let logout = IMAPCommand(name: "LOGOUT", parts: [.text(Array("LOGOUT".utf8))])

  /// `LOGIN user password`, each a quoted string or a literal.
  static func login(user: String, password: String) -> IMAPCommand {
    IMAPCommand(
      name: "LOGIN",
      parts: [.text(Array("LOGIN ".utf8))] + IMAPArgument.string(Array(user.utf8))
        + [.text([UInt8(ascii: " ")])] + IMAPArgument.string(Array(password.utf8)))
  }

  /// `AUTHENTICATE PLAIN`: the base64 of `\0user\0password`, on the command line with SASL-IR,
  /// else after the server's `+`.
  static func authenticatePlain(user: String, password: String, initialResponse: Bool) -> IMAPCommand {
    let credentials = IMAPBase64.encode([0] + Array(user.utf8) + [0] + Array(password.utf8))
    let start = Array("AUTHENTICATE PLAIN".utf8)
    let parts: [Part] =
      initialResponse
      ? [.text(start + [UInt8(ascii: " ")] + credentials)]
      : [.text(start), .awaitContinuation, .text(credentials)]
    return IMAPCommand(name: "AUTHENTICATE PLAIN", parts: parts)
  }

  static func select(_ mailbox: String) -> IMAPCommand {
    IMAPCommand(name: "SELECT", parts: [.text(Array("SELECT ".utf8))] + IMAPArgument.string(Array(mailbox.utf8)))
  }

  /// `UID SEARCH [CHARSET UTF-8] TO "address" [SINCE 07-Dec-2026]`.
  static func uidSearch(to address: String, since day: String?) -> IMAPCommand {
    let bytes = Array(address.utf8)
    let charset = bytes.contains { $0 >= 0x80 } ? "CHARSET UTF-8 " : ""
    var parts: [Part] = [.text(Array("UID SEARCH \(charset)TO ".utf8))] + IMAPArgument.string(bytes)
    if let day { parts.append(.text(Array(" SINCE \(day)".utf8))) }
    return IMAPCommand(name: "UID SEARCH", parts: parts)
  }

  /// `UID FETCH n (BODY.PEEK[])`: the whole message, without setting `\Seen`.
  static func uidFetchBody(_ uid: UInt32) -> IMAPCommand {
    IMAPCommand(name: "UID FETCH", parts: [.text(Array("UID FETCH \(uid) (BODY.PEEK[])".utf8))])
  }
}
