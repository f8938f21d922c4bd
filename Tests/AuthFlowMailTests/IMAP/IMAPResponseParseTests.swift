import Testing

@testable import AuthFlowMail

@Suite struct IMAPResponseParseTests {
  private func parse(_ lines: [String], literals: [[UInt8]] = []) throws -> IMAPResponse {
    try IMAPResponse(parsing: IMAPResponseFrame(lines: lines.map { Array($0.utf8) }, literals: literals))
  }

  @Test func taggedStatusWithCapabilityCode() throws {
    let response = try parse(["A0003 OK [CAPABILITY IMAP4rev1 SASL-IR literal+] Logged in"])
    let text = IMAPResponseText(code: .capability(["IMAP4REV1", "SASL-IR", "LITERAL+"]), text: "Logged in")
    #expect(response == .tagged(tag: "A0003", status: .ok, text: text))
  }

  @Test func taggedNoKeepsServerText() throws {
    let response = try parse(["a0 NO [AUTHENTICATIONFAILED] Authentication failed."])
    let text = IMAPResponseText(
      code: .other(name: "AUTHENTICATIONFAILED", arguments: ""), text: "Authentication failed.")
    #expect(response == .tagged(tag: "a0", status: .no, text: text))
  }

  @Test func greetingContinuationAndUntaggedData() throws {
    #expect(try parse(["+ "]) == .continuation(""))
    #expect(try parse(["+ go ahead"]) == .continuation("go ahead"))
    #expect(try parse(["* 22 EXISTS"]) == .untagged(.other("EXISTS")))
    #expect(try parse(["* CAPABILITY IMAP4rev1 STARTTLS"]) == .untagged(.capability(["IMAP4REV1", "STARTTLS"])))
    let greeting = try parse(["* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] Dovecot (Debian) ready."])
    let text = IMAPResponseText(code: .capability(["IMAP4REV1", "AUTH=PLAIN"]), text: "Dovecot (Debian) ready.")
    #expect(greeting == .untagged(.status(.ok, text)))
  }

  @Test func searchResults() throws {
    #expect(try parse(["* SEARCH 1 2 3"]) == .untagged(.search([1, 2, 3])))
    #expect(try parse(["* SEARCH"]) == .untagged(.search([])))
    #expect(try parse(["* SEARCH 4 (MODSEQ 917162500)"]) == .untagged(.search([4])))
    #expect(throws: IMAPError.self) { try parse(["* SEARCH 1 x"]) }
  }

  @Test func fetchWithItemsAroundTheLiteral() throws {
    let body = Array(") * 1 FETCH (UID 1 BODY[] {2}\r\n\r\n.\r\n".utf8) + [0]
    let response = try parse(
      [
        "* 3 FETCH (FLAGS (\\Seen) INTERNALDATE \"07-Dec-2026 15:26:06 +0000\" BODY[] {\(body.count)}",
        " UID 12 RFC822.SIZE 593)",
      ], literals: [body])
    #expect(response == .untagged(.fetch(sequence: 3, IMAPFetchAttributes(uid: 12, body: body))))
  }

  @Test func fetchSkipsOtherSectionsAndNestedLists() throws {
    let response = try parse(
      [
        "* 1 FETCH (UID 1 BODY[HEADER.FIELDS (TO SUBJECT)] {3}",
        " ENVELOPE (\"d\" \"a ) b\" NIL NIL) BODY[] \"hi\")",
      ], literals: [Array("x\r\n".utf8)])
    #expect(response == .untagged(.fetch(sequence: 1, IMAPFetchAttributes(uid: 1, body: Array("hi".utf8)))))
  }

  @Test func garbageIsAProtocolError() {
    for line in ["HTTP/1.1 200 OK", "", "* ", "A1 MAYBE so", "* 1 FETCH UID 1"] {
      #expect(throws: IMAPError.self) { try parse([line]) }
    }
  }
}
