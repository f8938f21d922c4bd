import Testing

@testable import AuthFlowMail

@Suite struct SMTPSessionTests {
  private func codes(_ session: inout SMTPSession, _ lines: [String]) -> [Int] {
    lines.flatMap { session.handle(line: $0).replies.map(\.code) }
  }

  @Test func ehloAdvertisesExtensions() {
    var session = SMTPSession(configuration: SMTPConfiguration(maxMessageBytes: 1234))
    let reply = session.handle(line: "EHLO client.test").replies[0]
    #expect(reply.code == 250)
    #expect(reply.lines.contains("SIZE 1234"))
    #expect(reply.lines.contains("PIPELINING"))
    #expect(!reply.lines.contains("STARTTLS"))
    #expect(reply.encoded.hasSuffix("250 HELP\r\n"))
  }

  @Test func commandOrderIsEnforced() {
    var session = SMTPSession(configuration: SMTPConfiguration())
    #expect(codes(&session, ["MAIL FROM:<a@e.com>", "EHLO x", "RCPT TO:<b@e.com>", "DATA"]) == [503, 250, 503, 503])
    #expect(codes(&session, ["MAIL FROM:<>", "MAIL FROM:<a@e.com>", "RCPT TO:<b@e.com>"]) == [250, 503, 250])
    #expect(session.handle(line: "DATA").action == .beginData)
    session.didFinishData()
    #expect(
      codes(&session, ["RSET", "NOOP", "VRFY x", "HELP", "FOO", "MAIL FROM:a", "QUIT"]) == [
        250, 250, 252, 214, 500, 501, 221,
      ])
  }

  @Test func mailParameters() {
    var session = SMTPSession(configuration: SMTPConfiguration(maxMessageBytes: 100))
    _ = session.handle(line: "EHLO x")
    #expect(
      codes(&session, ["MAIL FROM:<a@e.com> SIZE=101", "MAIL FROM:<a@e.com> SIZE=x", "MAIL FROM:<a@e.com> FOO=1"]) == [
        552, 501, 555,
      ])
    #expect(codes(&session, ["MAIL FROM:<a@e.com> SIZE=100 BODY=8BITMIME SMTPUTF8"]) == [250])
  }

  @Test func tooManyBadCommandsCloses() {
    var session = SMTPSession(configuration: SMTPConfiguration(maxBadCommands: 2))
    #expect(session.handle(line: "X").action == .none)
    let outcome = session.handle(line: "Y")
    #expect(outcome.replies.map(\.code) == [500, 421])
    #expect(outcome.action == .close)
  }

  @Test func requireTLSAndAuthentication() {
    let credentials = SMTPConfiguration.Credentials(user: "u", password: "p")
    var tls = SMTPSession(
      configuration: SMTPConfiguration(
        tls: SMTPConfiguration.TLS(certificateChainPath: "c", privateKeyPath: "k"), requireTLS: true,
        credentials: credentials))
    #expect(!tls.handle(line: "EHLO x").replies[0].lines.contains("AUTH PLAIN LOGIN"))
    #expect(codes(&tls, ["MAIL FROM:<a@e.com>", "AUTH PLAIN AHUAcA=="]) == [530, 538])
    #expect(tls.handle(line: "STARTTLS").action == .startTLS)
    tls.didStartTLS()
    #expect(codes(&tls, ["MAIL FROM:<a@e.com>"]) == [503])
    #expect(tls.handle(line: "EHLO x").replies[0].lines.contains("AUTH PLAIN LOGIN"))
    #expect(
      codes(&tls, ["MAIL FROM:<a@e.com>", "AUTH PLAIN AHUAcQ==", "AUTH PLAIN AHUAcA==", "MAIL FROM:<a@e.com>"]) == [
        530, 535, 235, 250,
      ])
  }

  @Test func authLoginWithChallenges() {
    var session = SMTPSession(
      configuration: SMTPConfiguration(
        credentials: SMTPConfiguration.Credentials(user: "user", password: "secret"), allowPlaintextAuth: true))
    _ = session.handle(line: "EHLO x")
    let challenge = session.handle(line: "AUTH LOGIN").replies[0]
    #expect(challenge.encoded == "334 VXNlcm5hbWU6\r\n")
    #expect(codes(&session, ["dXNlcg==", "c2VjcmV0"]) == [334, 235])
    #expect(codes(&session, ["AUTH PLAIN"]) == [503])
  }

  @Test func authPlainWithoutInitialResponseAndCancel() {
    var session = SMTPSession(
      configuration: SMTPConfiguration(
        credentials: SMTPConfiguration.Credentials(user: "u", password: "p"), allowPlaintextAuth: true))
    _ = session.handle(line: "EHLO x")
    #expect(session.handle(line: "AUTH PLAIN").replies[0].encoded == "334 \r\n")
    #expect(
      codes(&session, ["*", "AUTH PLAIN", "not base64!", "AUTH CRAM-MD5", "AUTH PLAIN", "AHUAcA=="]) == [
        501, 334, 501, 504, 334, 235,
      ])
  }

  @Test func constantTimeComparison() {
    #expect(SMTPSession.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
    #expect(!SMTPSession.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)))
    #expect(!SMTPSession.constantTimeEquals(Array("abc".utf8), Array("abcd".utf8)))
    #expect(!SMTPSession.constantTimeEquals([], [0]))
  }
}
