public import Foundation

extension IMAPClient {
  /// Opens ``IMAPConfiguration/mailbox`` (`SELECT`): the UID the next message delivered to it
  /// will have (the `[UIDNEXT n]` RFC 3501 §6.3.1 requires in the answer), nil from a server that
  /// left it out.
  @discardableResult
  public func select() async throws(IMAPError) -> UInt32? {
    try await redactingPassword { () async throws(IMAPError) -> UInt32? in
      guard state == .authenticated || state == .selected else { throw .notLoggedIn("SELECT") }
      let reply = try await execute(.select(configuration.mailbox))
      try reply.requireOK()
      state = .selected
      for case .status(.ok, let text) in reply.untagged {
        if case .other(let name, let arguments)? = text.code, name == "UIDNEXT",
          let next = UInt32(arguments.trimmingCharacters(in: .whitespaces))
        {
          return next
        }
      }
      return nil
    }
  }

  /// `NOOP`: lets the server report new mail. Send it before every search when polling; a
  /// selected mailbox is not rescanned for a plain search on some servers (dovecot's Maildir).
  public func noop() async throws(IMAPError) {
    try await redactingPassword { () async throws(IMAPError) in
      try await execute(.noop).requireOK()
    }
  }

  /// The UIDs of the messages addressed to `address` (`UID SEARCH TO "address"`), in the
  /// server's order (ascending), optionally only those delivered on or after the day of `date`
  /// (`SINCE 07-Dec-2026`, the day in UTC; servers compare it with the delivery day in their own
  /// time zone, so pass a day earlier when the cut-off must not miss anything).
  public func searchUIDs(to address: String, since date: Date?) async throws(IMAPError) -> [UInt32] {
    try await redactingPassword { () async throws(IMAPError) -> [UInt32] in
      guard state == .selected else { throw .notSelected("UID SEARCH") }
      let reply = try await execute(.uidSearch(to: address, since: date.map(IMAPSearchDate.format)))
      try reply.requireOK()
      var uids: [UInt32] = []
      for case .search(let found) in reply.untagged { uids += found }
      return uids
    }
  }

  /// The whole message with `uid` (`UID FETCH uid (BODY.PEEK[])`, which leaves `\Seen` unset),
  /// its bytes exactly as sent. A UID that does not exist is a `protocolError`.
  public func fetch(uid: UInt32) async throws(IMAPError) -> [UInt8] {
    try await redactingPassword { () async throws(IMAPError) -> [UInt8] in
      guard let raw = try await fetchIfPresent(uid: uid) else { throw .noSuchMessage(uid) }
      return raw
    }
  }

  /// The whole message with `uid`, or nil if the server returned none (no such UID).
  func fetchIfPresent(uid: UInt32) async throws(IMAPError) -> [UInt8]? {
    guard state == .selected else { throw .notSelected("UID FETCH") }
    let reply = try await execute(.uidFetchBody(uid))
    try reply.requireOK()
    for case .fetch(_, let attributes) in reply.untagged
    where attributes.uid == uid || attributes.uid == nil {
      if let body = attributes.body { return body }
    }
    return nil
  }

  /// `LOGOUT`, then closes the connection. A server that hangs up right after its `BYE` has
  /// logged the client out all the same.
  public func logout() async throws(IMAPError) {
    var failure: IMAPError?
    do throws(IMAPError) {
      try await execute(.logout).requireOK()
    } catch {
      failure = error
    }
    await close()
    state = .loggedOut
    if let failure, failure.kind != .closed { throw failure.redacting(configuration.password) }
  }
}

extension IMAPError {
  static func notLoggedIn(_ command: String) -> IMAPError {
    IMAPError(.protocolError, "\(command) needs a logged-in client; call login() first", command: command)
  }

  static func notSelected(_ command: String) -> IMAPError {
    IMAPError(.protocolError, "\(command) needs a selected mailbox; call select() first", command: command)
  }

  static func noSuchMessage(_ uid: UInt32) -> IMAPError {
    IMAPError(.protocolError, "the server returned no message with UID \(uid)", command: "UID FETCH")
  }
}
