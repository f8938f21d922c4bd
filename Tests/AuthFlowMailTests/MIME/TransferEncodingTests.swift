import Testing

@testable import AuthFlowMail

@Suite struct TransferEncodingTests {
  @Test(arguments: [
    ("a=3Db", "a=b"),
    ("soft=\r\nbreak", "softbreak"),
    ("soft=\nbreak", "softbreak"),
    ("trailing= \t\r\nspace", "trailingspace"),
    ("end=", "end"),
    ("lower=c3=a9", "loweré"),
    ("bad=G1", "bad=G1"),
  ])
  func quotedPrintable(encoded: String, decoded: String) {
    #expect(
      String(decoding: TransferEncoding.decodeQuotedPrintable(Array(encoded.utf8)[...]), as: UTF8.self) == decoded)
  }

  @Test(arguments: [("aGk=", "hi"), ("aGk", "hi"), ("a G\r\nk", "hi"), ("YWJj", "abc"), ("", "")])
  func base64(encoded: String, decoded: String) {
    #expect(String(decoding: TransferEncoding.decodeBase64(Array(encoded.utf8)), as: UTF8.self) == decoded)
  }

  @Test func strictBase64RejectsWhatAuthMustNotAccept() {
    #expect(TransferEncoding.decodeBase64Strict("aGk=") == Array("hi".utf8))
    #expect(TransferEncoding.decodeBase64Strict("aGk") == nil)
    #expect(TransferEncoding.decodeBase64Strict("a!k=") == nil)
    #expect(TransferEncoding.encodeBase64(Array("\0user\0pass".utf8)) == "AHVzZXIAcGFzcw==")
  }
}
