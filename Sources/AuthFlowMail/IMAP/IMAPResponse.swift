/// A server response, interpreted as far as this client needs.
enum IMAPResponse: Sendable, Hashable {
  /// `A0001 OK [CODE …] text`: the end of a command.
  case tagged(tag: String, status: IMAPStatus, text: IMAPResponseText)
  /// `* …`: data or a status the server volunteers.
  case untagged(IMAPUntaggedResponse)
  /// `+ text`: the server waits for the rest of a command.
  case continuation(String)
}

/// The outcome of a command, or the condition in an untagged status response.
enum IMAPStatus: String, Sendable, Hashable {
  case ok = "OK"
  case no = "NO"
  case bad = "BAD"
  case bye = "BYE"
  case preauth = "PREAUTH"
}

/// The text after a status: an optional `[CODE …]` and the human-readable rest.
struct IMAPResponseText: Sendable, Hashable {
  var code: IMAPResponseCode?
  var text: String
}

/// A bracketed response code.
enum IMAPResponseCode: Sendable, Hashable {
  /// `[CAPABILITY IMAP4rev1 …]`, names upper-cased.
  case capability(Set<String>)
  /// Any other code, by its upper-cased name and the raw rest.
  case other(name: String, arguments: String)
}

/// The untagged responses this client reads; the rest are kept only by name.
enum IMAPUntaggedResponse: Sendable, Hashable {
  case status(IMAPStatus, IMAPResponseText)
  case capability(Set<String>)
  case search([UInt32])
  case fetch(sequence: UInt32, IMAPFetchAttributes)
  case other(String)
}

/// The items of a FETCH response this client reads.
struct IMAPFetchAttributes: Sendable, Hashable {
  var uid: UInt32?
  /// `BODY[]`, `BINARY[]` or `RFC822`: the whole message.
  var body: [UInt8]?
}
