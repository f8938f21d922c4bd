import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import AuthFlowMail

/// The sender the mock tenant delivers with: against the receiver (every byte survives the round
/// trip: an encoded subject, quoted-printable lines, a line that starts with a dot), and against
/// servers that refuse, never greet, or are not there. Its real third-party peer is exim
/// (`IMAPDovecotTests.theSenderDeliversThroughExim`).
@Suite struct SMTPSenderTests {
  static func message(to: String, subject: String, text: String) -> OutgoingMessage {
    OutgoingMessage(
      from: "Mock <no-reply@mock.authflow.invalid>", to: [to], subject: subject, text: text,
      date: "Mon, 07 Dec 2026 15:00:00 +0000", messageID: "1.test@mock.authflow.invalid")
  }

  @Test func everyByteSurvivesTheRoundTrip() async throws {
    let text =
      "Your verification code is: 482913\n.a line that starts with a dot\n..two dots\n"
      + String(repeating: "a long line ", count: 20) + "\nspaces at the end   \nÜmlaut = equals\n"
    try await withTestServer { server in
      let sender = SMTPSender(host: "127.0.0.1", port: server.port, timeout: .seconds(600))
      let outgoing = Self.message(to: "qa+s1@test.example.com", subject: "Ihr Bestätigungscode", text: text)
      try await sender.send(outgoing.bytes, from: "no-reply@mock.authflow.invalid", to: ["qa+s1@test.example.com"])
      let stored = try #require(server.store.messages(to: "qa+s1@test.example.com").first)
      #expect(stored.subject == "Ihr Bestätigungscode")
      #expect(stored.text.replacingOccurrences(of: "\r\n", with: "\n") == text)
      #expect(stored.channel == "email")
    }
  }

  @Test func mailToTheSMSDomainIsATextMessage() async throws {
    try await withTestServer { server in
      let sender = SMTPSender(host: "127.0.0.1", port: server.port, timeout: .seconds(600))
      let outgoing = Self.message(to: "+15550100@sms.invalid", subject: "", text: "Your code is 5566")
      try await sender.send(outgoing.bytes, from: "no-reply@mock.authflow.invalid", to: ["+15550100@sms.invalid"])
      let stored = try #require(server.store.messages(to: "+15550100").first)
      #expect(stored.channel == "sms")
      #expect(stored.text.contains("5566"))
    }
  }

  /// A subject or address with a line end cannot add a header (or a command).
  @Test func headerAndCommandInjectionIsRefused() async throws {
    try await withTestServer { server in
      let sender = SMTPSender(host: "127.0.0.1", port: server.port, timeout: .seconds(600))
      let outgoing = Self.message(to: "qa+s2@test.example.com", subject: "Hi\r\nBcc: victim@example.com", text: "x")
      try await sender.send(outgoing.bytes, from: "a@example.com", to: ["qa+s2@test.example.com"])
      let stored = try #require(server.store.messages(to: "qa+s2@test.example.com").first)
      #expect(stored.recipients == ["qa+s2@test.example.com"])
      #expect(!stored.subject.contains("\n"))
      await #expect(throws: SMTPSendError.self) {
        try await sender.send(outgoing.bytes, from: "a@example.com", to: ["b@example.com>\r\nRCPT TO:<c@example.com"])
      }
      #expect(server.store.messages(to: "c@example.com").isEmpty)
    }
  }

  @Test func aRefusalNamesTheCommandAndTheReply() async throws {
    let configuration = SMTPConfiguration(credentials: .init(user: "u", password: "p"), allowPlaintextAuth: true)
    try await withTestServer(configuration) { server in
      let sender = SMTPSender(host: "127.0.0.1", port: server.port, timeout: .seconds(600))
      do throws(SMTPSendError) {
        try await sender.send(Array("Subject: x\r\n\r\nx\r\n".utf8), from: "a@example.com", to: ["b@example.com"])
        Issue.record("a server that wants AUTH took the message")
      } catch {
        guard case .refused(let command, let reply) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(command == "MAIL")
        #expect(reply.hasPrefix("530"))
      }
    }
  }

  @Test func nothingListeningIsAConnectionFailure() async throws {
    // A port bound and never listened on: refused.
    let channel = try await ServerBootstrap(group: NIOSingletons.posixEventLoopGroup)
      .bind(host: "127.0.0.1", port: 0).get()
    let port = try #require(channel.localAddress?.port)
    try await channel.close()
    let sender = SMTPSender(host: "127.0.0.1", port: port, timeout: .seconds(300))
    await #expect(throws: SMTPSendError.self) {
      try await sender.send(Array("x\r\n".utf8), from: "a@example.com", to: ["b@example.com"])
    }
  }

  @Test func aServerThatNeverGreetsTimesOut() async throws {
    let silent = try await ServerBootstrap(group: NIOSingletons.posixEventLoopGroup)
      .bind(host: "127.0.0.1", port: 0).get()
    defer { silent.close(promise: nil) }
    let port = try #require(silent.localAddress?.port)
    let sender = SMTPSender(host: "127.0.0.1", port: port, timeout: .milliseconds(500))
    do throws(SMTPSendError) {
      try await sender.send(Array("x\r\n".utf8), from: "a@example.com", to: ["b@example.com"])
      Issue.record("sent to a server that never greets")
    } catch {
      guard case .timeout = error else {
        Issue.record("\(error)")
        return
      }
    }
  }

  @Test func theDateHeaderIsRFC5322() {
    #expect(OutgoingMessage.dateHeader(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 +0000")
    #expect(OutgoingMessage.dateHeader(secondsSince1970: 1_796_656_935) == "Mon, 07 Dec 2026 15:22:15 +0000")
  }

  @Test func dotStuffingAndLineEnds() {
    let stuffed = String(decoding: SMTPDotStuffing.stuffed(Array("a\n.b\r\n..c".utf8)), as: UTF8.self)
    #expect(stuffed == "a\r\n..b\r\n...c\r\n.\r\n")
  }
}
