import Foundation
import Testing

@testable import AuthFlowMail

@Suite struct IMAPCommandTests {
  private func text(_ command: IMAPCommand, literalPlus: Bool = false) -> [String] {
    command.chunks(tag: "A0001", literalPlus: literalPlus).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func loginQuotesAndEscapes() {
    #expect(text(.login(user: "qa", password: #"pa"ss\word"#)) == [#"A0001 LOGIN "qa" "pa\"ss\\word""# + "\r\n"])
  }

  @Test func loginSendsAnUnquotablePasswordAsALiteral() {
    #expect(text(.login(user: "qa", password: "pä\r\nss")) == ["A0001 LOGIN \"qa\" {7}\r\n", "pä\r\nss\r\n"])
    #expect(text(.login(user: "qa", password: "pä"), literalPlus: true) == ["A0001 LOGIN \"qa\" {3+}\r\npä\r\n"])
  }

  @Test func authenticatePlainWithAndWithoutInitialResponse() {
    #expect(
      text(.authenticatePlain(user: "qa", password: "qa-imap-Passw0rd", initialResponse: true)) == [
        "A0001 AUTHENTICATE PLAIN AHFhAHFhLWltYXAtUGFzc3cwcmQ=\r\n"
      ])
    #expect(
      text(.authenticatePlain(user: "u", password: "p", initialResponse: false)) == [
        "A0001 AUTHENTICATE PLAIN\r\n", "AHUAcA==\r\n",
      ])
  }

  @Test func searchQuotesTheAddressAndFormatsTheDay() throws {
    let date = try #require(ISO8601DateFormatter().date(from: "2026-12-07T23:59:00Z"))
    #expect(
      text(.uidSearch(to: #"qa+"x"@test.example.com"#, since: IMAPSearchDate.format(date))) == [
        #"A0001 UID SEARCH TO "qa+\"x\"@test.example.com" SINCE 07-Dec-2026"# + "\r\n"
      ])
    #expect(text(.uidSearch(to: "é@x", since: nil)) == ["A0001 UID SEARCH CHARSET UTF-8 TO {4}\r\n", "é@x\r\n"])
  }

  @Test func fetchAndSelect() {
    #expect(text(.uidFetchBody(42)) == ["A0001 UID FETCH 42 (BODY.PEEK[])\r\n"])
    #expect(text(.select("INBOX")) == ["A0001 SELECT \"INBOX\"\r\n"])
  }

  @Test func configurationNeverPrintsThePassword() {
    let configuration = IMAPConfiguration(
      host: "127.0.0.1", port: 1, security: .plain, user: "qa", password: "s3cret-Pw")
    #expect(!"\(configuration)".contains("s3cret-Pw"))
    #expect(!String(reflecting: configuration).contains("s3cret-Pw"))
  }

  @Test func plaintextOnlyToLoopback() {
    let remote = IMAPConfiguration(host: "mail.example.com", port: 143, security: .plain, user: "u", password: "p")
    #expect(throws: IMAPError.plaintextToRemoteHost("mail.example.com")) { try remote.validate() }
    var allowed = remote
    allowed.allowPlaintext = true
    #expect(throws: Never.self) { try allowed.validate() }
    for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
      let local = IMAPConfiguration(host: host, port: 143, security: .plain, user: "u", password: "p")
      #expect(local.isLoopbackHost)
    }
  }
}
