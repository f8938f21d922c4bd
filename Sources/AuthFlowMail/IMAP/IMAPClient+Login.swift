extension IMAPClient {
  /// Logs in as ``IMAPConfiguration/user``: `AUTHENTICATE PLAIN` when the server advertises
  /// `AUTH=PLAIN` (with the initial response on the command line under `SASL-IR`), else
  /// `LOGIN` with quoted strings (a literal for a password with CR, LF or 8-bit bytes), unless the
  /// server says `LOGINDISABLED`.
  ///
  /// A `NO` is ``IMAPError/Kind/authenticationFailed`` with the server's text.
  public func login() async throws(IMAPError) {
    try await redactingPassword { () async throws(IMAPError) in
      guard state == .notAuthenticated else { throw .loginInWrongState }
      let command: IMAPCommand
      if capabilities.contains("AUTH=PLAIN") {
        command = .authenticatePlain(
          user: configuration.user, password: configuration.password,
          initialResponse: capabilities.contains("SASL-IR"))
      } else if capabilities.contains("LOGINDISABLED") {
        throw .loginDisabled
      } else {
        command = .login(user: configuration.user, password: configuration.password)
      }
      let reply = try await execute(command)
      switch reply.status {
      case .ok:
        state = .authenticated
        // The server may offer more once logged in; without a list, ask when it matters.
        capabilities = reply.capabilities ?? []
      case .no:
        throw .rejectedCredentials(command.name, user: configuration.user, reply.text.text)
      default:
        try reply.requireOK()
      }
    }
  }
}

extension IMAPError {
  static let loginInWrongState = IMAPError(
    .protocolError, "login() needs a connected client that has not logged in yet", command: "LOGIN")
  static let loginDisabled = IMAPError(
    .authenticationFailed,
    "the server advertises LOGINDISABLED and no AUTH=PLAIN, so there is no way to send the password",
    command: "LOGIN")

  static func rejectedCredentials(_ command: String, user: String, _ text: String) -> IMAPError {
    IMAPError(
      .authenticationFailed, "the server rejected the credentials for \(user) (\(command)): \(text)",
      command: command, serverText: text)
  }
}
