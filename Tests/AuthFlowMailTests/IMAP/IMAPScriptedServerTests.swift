import Testing

@testable import AuthFlowMail

/// The client against well-behaved scripted servers, for the paths dovecot does not take:
/// `LOGIN` with a literal, `AUTHENTICATE` without SASL-IR, a FETCH with a NUL in the body and
/// the UID after it, and unsolicited FETCH responses for other messages.
@Suite(.timeLimit(.minutes(10))) struct IMAPScriptedServerTests {
  private static let body: [UInt8] = Array("Subject: x\r\n\r\n) * 2 FETCH (UID 9 BODY[] {3}\r\n.\r\n".utf8) + [0, 0x29]

  private func configuration(_ port: Int, password: String) -> IMAPConfiguration {
    IMAPConfiguration(
      host: "127.0.0.1", port: port, security: .plain, user: "qa", password: password,
      connectTimeout: .seconds(300), commandTimeout: .seconds(300))
  }

  /// Answers the mailbox commands after login; returns false when the client logged out.
  private static func mailbox(_ peer: inout FakeIMAPPeer, tag: Substring, command: String) async throws -> Bool {
    switch command {
    case let text where text.hasPrefix("SELECT"):
      try await peer.send("* 3 EXISTS\r\n\(tag) OK [READ-WRITE] selected\r\n")
    case let text where text.hasPrefix("UID SEARCH"):
      try await peer.send("* 3 EXISTS\r\n* SEARCH 5 7\r\n\(tag) OK done\r\n")
    case let text where text.hasPrefix("UID FETCH 7 "):
      try await peer.send("* 1 FETCH (FLAGS (\\Seen) UID 5)\r\n* 2 FETCH (FLAGS () BODY[] {\(body.count)}\r\n")
      try await peer.send(bytes: body)
      try await peer.send(" UID 7)\r\n\(tag) OK done\r\n")
    case let text where text.hasPrefix("UID FETCH 5 "):
      try await peer.send("\(tag) OK nothing (expunged)\r\n")
    case "LOGOUT":
      try await peer.send("* BYE bye\r\n\(tag) OK done\r\n")
      return false
    default:
      try await peer.send("\(tag) OK done\r\n")
    }
    return true
  }

  @Test func loginWithALiteralPasswordThenSearchAndFetch() async throws {
    let password = "p\"ä\\\r\nx"
    let messages = try await FakeIMAPServer.with({ peer in
      try await peer.send("* OK [CAPABILITY IMAP4rev1] hi\r\n")
      while let line = try await peer.readLine() {
        let tag = line.prefix { $0 != " " }
        let command = String(line.dropFirst(tag.count + 1))
        if command.hasPrefix("LOGIN") {
          guard command == "LOGIN \"qa\" {\(Array(password.utf8).count)}" else {
            try await peer.send("\(tag) BAD unexpected \(command)\r\n")
            continue
          }
          try await peer.send("+ go on\r\n")
          let literal = try await peer.readBytes(Array(password.utf8).count)
          let rest = try await peer.readLine()
          let ok = literal == Array(password.utf8) && rest == ""
          try await peer.send(ok ? "\(tag) OK logged in\r\n" : "\(tag) NO wrong\r\n")
          continue
        }
        guard try await Self.mailbox(&peer, tag: tag, command: command) else { return }
      }
    }) { port, _ in
      try await IMAPClient.messages(to: "qa@x", since: nil, configuration: configuration(port, password: password))
    }
    #expect(messages == [IMAPMessage(uid: 7, raw: Self.body)])
  }

  @Test func authenticatePlainWaitsForTheContinuationWithoutSASLIR() async throws {
    let messages = try await FakeIMAPServer.with({ peer in
      try await peer.send("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] hi\r\n")
      while let line = try await peer.readLine() {
        let tag = line.prefix { $0 != " " }
        let command = String(line.dropFirst(tag.count + 1))
        if command == "AUTHENTICATE PLAIN" {
          try await peer.send("+ \r\n")
          let response = try await peer.readLine()
          try await peer.send(
            response == "AHFhAHNlY3JldA==" ? "\(tag) OK in\r\n" : "\(tag) NO [AUTHENTICATIONFAILED] no\r\n")
          continue
        }
        guard try await Self.mailbox(&peer, tag: tag, command: command) else { return }
      }
    }) { port, received in
      let found = try await IMAPClient.messages(
        to: "qa@x", since: nil, configuration: configuration(port, password: "secret"))
      #expect(await !received.text.contains("LOGIN "))
      return found
    }
    #expect(messages.map(\.uid) == [7])
  }

  @Test func rejectedAuthenticateIsAuthenticationFailedWithTheServerText() async throws {
    let error = try await FakeIMAPServer.with({ peer in
      try await peer.serve(greeting: "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN SASL-IR] hi") { tag, _ in
        "\(tag) NO [AUTHENTICATIONFAILED] Authentication failed.\r\n"
      }
    }) { port, _ -> IMAPError? in
      let client = IMAPClient(configuration: configuration(port, password: "secret"))
      do throws(IMAPError) {
        try await client.connect()
        try await client.login()
        return nil
      } catch {
        return error
      }
    }
    #expect(error?.kind == .authenticationFailed)
    #expect(error?.serverText == "Authentication failed.")
    #expect(error?.command == "AUTHENTICATE PLAIN")
  }
}
