import AuthFlowExpression
import Testing

/// The built-in rules that find a code and a link in a message nobody described: Auth0's default
/// templates, and the shapes other senders use, with the numbers that are not codes (a host's port,
/// a date, a year, an address) passed over.
@Suite struct MessageExtractionTests {
  @Test(arguments: [
    ("Your verification code is: 123456", "123456"),
    ("Your code: 0042", "0042"),
    // django-allauth: the host and port come first, the code alone on its line after "code".
    (
      "Hello from 127.0.0.1:8120!\r\n\r\nYour sign-in code is listed below.\r\n\r\nQWQG-FWXS\r\n\r\nThank you for using 127.0.0.1:8120!",
      "QWQG-FWXS"
    ),
    ("Hello from 127.0.0.1:8120!\nYour one-time password (OTP) is 739104.", "739104"),
    ("Sent 2026-12-07 by mail.example.com:2525\n\nUse 482913 to sign in.", "482913"),
    ("In 2026, your login key is below:\n\n 55 66 \nEnter 918273 now", "918273"),
    ("Your security code\n\nK7GZQ2\n\nexpires in 5 minutes", "K7GZQ2"),
  ])
  func codes(text: String, expected: String) {
    #expect(MessageExtraction.code(in: text) == expected)
  }

  @Test func noCodeIsNil() {
    #expect(MessageExtraction.code(in: "Welcome! Visit https://example.com:8443/home on 2026-12-07.") == nil)
  }

  @Test func aPatternWins() throws {
    let pattern = try RegexPattern("token ([a-z]{5})")
    #expect(MessageExtraction.code(in: "code 123456, token abcde", pattern: pattern) == "abcde")
  }

  @Test func theFirstLinkEndsAtWhitespaceQuoteOrBracket() {
    #expect(
      MessageExtraction.link(in: "Open <https://t.example/lo/reset?ticket=T1#> or (https://x.example)")
        == "https://t.example/lo/reset?ticket=T1#")
  }
}
