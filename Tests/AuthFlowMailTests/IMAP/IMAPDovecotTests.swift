import Foundation
import Testing

@testable import AuthFlowMail

/// The client against the real dovecot of `conformance/mailserver/start`, with mail sent to exim.
@Suite(.enabled(if: LoopbackMailServer.shouldRun, LoopbackMailServer.notReachableComment), .timeLimit(.minutes(10)))
struct IMAPDovecotTests {
  private func sendCode(to address: String) async throws -> String {
    let code = String(Int.random(in: 100_000...999_999))
    try await LoopbackMailServer.send(
      LoopbackMailServer.message(to: address, subject: "Your code", body: "Your verification code is \(code)\n"),
      to: address)
    return code
  }

  @Test func readsACodeOverSTARTTLS() async throws {
    let address = LoopbackMailServer.uniqueAddress()
    let code = try await sendCode(to: address)
    let found = try await LoopbackMailServer.poll(
      address, configuration: LoopbackMailServer.configuration(security: .startTLS))
    #expect(found.count == 1)
    #expect(found.first.map { String(decoding: $0.raw, as: UTF8.self).contains("code is \(code)\r\n") } == true)
  }

  @Test func readsACodeOverImplicitTLS() async throws {
    let address = LoopbackMailServer.uniqueAddress()
    let code = try await sendCode(to: address)
    let found = try await LoopbackMailServer.poll(
      address, configuration: LoopbackMailServer.configuration(security: .implicitTLS))
    #expect(found.count == 1)
    #expect(found.first.map { String(decoding: $0.raw, as: UTF8.self).contains("To: \(address)\r\n") } == true)
    #expect(found.first.map { String(decoding: $0.raw, as: UTF8.self).contains(code) } == true)
  }

  @Test func verifiesTheHostNameLocalhostToo() async throws {
    let client = IMAPClient(configuration: LoopbackMailServer.configuration(security: .implicitTLS, host: "localhost"))
    try await client.connect()
    #expect(await client.serverCapabilities.contains("AUTH=PLAIN"))
    try await client.logout()
  }

  @Test func untrustedCertificateIsTLSFailed() async throws {
    var configuration = LoopbackMailServer.configuration(security: .implicitTLS)
    configuration.trustRoots = .system
    let client = IMAPClient(configuration: configuration)
    await #expect(throws: IMAPError.self) {
      do throws(IMAPError) {
        try await client.connect()
      } catch {
        #expect(error.kind == .tlsFailed)
        throw error
      }
    }
  }

  @Test(arguments: [IMAPConfiguration.Security.startTLS, .implicitTLS])
  func wrongPasswordIsAuthenticationFailed(security: IMAPConfiguration.Security) async throws {
    let client = IMAPClient(configuration: LoopbackMailServer.configuration(security: security, password: "wrong-Pw"))
    try await client.connect()
    do {
      try await client.login()
      Issue.record("logged in with a wrong password")
    } catch {
      #expect(error.kind == .authenticationFailed)
      #expect(error.serverText?.contains("Authentication failed") == true)
      #expect(!error.message.contains("wrong-Pw"))
    }
    await client.close()
  }

  @Test func searchForAnAddressWithoutMailIsEmpty() async throws {
    let client = IMAPClient(configuration: LoopbackMailServer.configuration(security: .startTLS))
    try await client.connect()
    try await client.login()
    try await client.select()
    try await client.noop()
    #expect(try await client.searchUIDs(to: LoopbackMailServer.uniqueAddress(), since: nil) == [])
    #expect(try await client.searchUIDs(to: LoopbackMailServer.uniqueAddress(), since: Date()) == [])
    await #expect(throws: IMAPError.self) { try await client.fetch(uid: UInt32.max - 1) }
    try await client.logout()
  }

  @Test func bodyWithIMAPSyntaxAndALoneDotParsesWhole() async throws {
    let address = LoopbackMailServer.uniqueAddress()
    let body = "closing ) paren\n* 1 FETCH (UID 1 BODY[] {5}\nA0005 OK Fetch completed\n.\n..\n{12}\nend 482913\n"
    try await LoopbackMailServer.send(
      LoopbackMailServer.message(to: address, subject: "tricky", body: body), to: address)
    let found = try await LoopbackMailServer.poll(
      address, configuration: LoopbackMailServer.configuration(security: .implicitTLS))
    let raw = try #require(found.first).raw
    let text = String(decoding: raw, as: UTF8.self)
    #expect(text.hasSuffix("\r\n\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n")))
    #expect(text.contains("\r\n.\r\n..\r\n"))
  }

  /// The mark `outbox`'s `after:` takes on a mailbox: one below dovecot's `UIDNEXT`; mail
  /// delivered after it has a larger UID (the mailbox is shared by the suite, so at least one).
  @Test func lastUIDMarksMailDeliveredAfterIt() async throws {
    let configuration = LoopbackMailServer.configuration(security: .startTLS)
    let before = try await IMAPClient.lastUID(configuration: configuration)
    let address = LoopbackMailServer.uniqueAddress()
    _ = try await sendCode(to: address)
    let found = try await LoopbackMailServer.poll(address, configuration: configuration)
    let uid = try #require(found.first?.uid)
    #expect(uid > before)
    #expect(try await IMAPClient.lastUID(configuration: configuration) >= uid)
  }

  @Test func pollingWithOneSessionSeesNewMailAfterNOOP() async throws {
    let address = LoopbackMailServer.uniqueAddress()
    let client = IMAPClient(configuration: LoopbackMailServer.configuration(security: .implicitTLS))
    try await client.connect()
    try await client.login()
    try await client.select()
    #expect(try await client.searchUIDs(to: address, since: nil) == [])
    _ = try await sendCode(to: address)
    var uids: [UInt32] = []
    for _ in 0..<40 where uids.isEmpty {
      try await client.noop()
      uids = try await client.searchUIDs(to: address, since: Date())
      if uids.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
    }
    #expect(uids.count == 1)
    let raw = try await client.fetch(uid: try #require(uids.first))
    #expect(String(decoding: raw, as: UTF8.self).contains("To: \(address)"))
    try await client.logout()
  }

  /// The mock tenant's sender against a real MTA: exim takes the message, dovecot serves it, and
  /// the MIME decoder reads back the subject and the text as they were sent.
  @Test func theSenderDeliversThroughExim() async throws {
    let address = LoopbackMailServer.uniqueAddress()
    let outgoing = OutgoingMessage(
      from: "Mock <no-reply@mock.authflow.invalid>", to: [address], subject: "Ihr Bestätigungscode",
      text: "Your verification code is: 739104\n.a dot line\n", date: "Mon, 07 Dec 2026 15:00:00 +0000",
      messageID: "exim.test@mock.authflow.invalid")
    let sender = SMTPSender(host: LoopbackMailServer.host, port: LoopbackMailServer.smtpPort, timeout: .seconds(300))
    try await sender.send(outgoing.bytes, from: "no-reply@mock.authflow.invalid", to: [address])
    let found = try await LoopbackMailServer.poll(
      address, configuration: LoopbackMailServer.configuration(security: .startTLS))
    let raw = try #require(found.first?.raw)
    let decoded = try MIMEDecoder.decode(raw)
    #expect(decoded.subject == "Ihr Bestätigungscode")
    #expect(
      decoded.text.replacingOccurrences(of: "\r\n", with: "\n") == "Your verification code is: 739104\n.a dot line\n")
  }
}
