import Testing

@testable import AuthFlowMail

@Suite struct MIMEDecoderTests {
  private func decode(_ text: String) throws -> DecodedMessage {
    try MIMEDecoder.decode(Array(text.utf8))
  }

  @Test func plainMessageHeadersAndBody() throws {
    let message = try decode(
      """
      From: "Doe, Jane" <jane@example.com>\r
      To: a@example.com, Bob <b@example.com>\r
      cc: (team) c@example.com\r
      Subject: Hello\r
       world\r
      Date: Mon, 7 Dec 2026 10:00:00 +0000\r
      Message-ID: <abc@example.com>\r
      \r
      Body line\r

      """)
    #expect(message.from == "jane@example.com")
    #expect(message.to == ["a@example.com", "b@example.com"])
    #expect(message.cc == ["c@example.com"])
    #expect(message.subject == "Hello world")
    #expect(message.date == "Mon, 7 Dec 2026 10:00:00 +0000")
    #expect(message.messageID == "abc@example.com")
    #expect(message.headers["SUBJECT"] == "Hello world")
    #expect(message.text == "Body line\r\n")
    #expect(message.html == nil)
  }

  @Test func quotedPrintableBody() throws {
    let message = try decode(
      """
      Content-Type: text/plain; charset=utf-8
      Content-Transfer-Encoding: quoted-printable

      Caf=C3=A9 au lait, a long line that is soft=\u{20}
      ly broken, and =3D signs; bad =ZZ stays.
      """)
    #expect(message.text == "Café au lait, a long line that is softly broken, and = signs; bad =ZZ stays.")
  }

  @Test func base64BodyWithWhitespaceAndMissingPadding() throws {
    let message = try decode(
      """
      Content-Type: text/plain; charset="UTF-8"
      Content-Transfer-Encoding: BASE64

      SGVsbG8s
      IHfDtnJs
      ZCE
      """)
    #expect(message.text == "Hello, wörld!")
  }

  @Test func multipartAlternativeWithHTML() throws {
    let message = try decode(
      """
      From: a@example.com\r
      Content-Type: multipart/alternative; boundary="b1=_x"\r
      \r
      preamble\r
      --b1=_x\r
      Content-Type: text/plain; charset=us-ascii\r
      \r
      Your code is 123456\r
      --b1=_x\r
      Content-Type: text/html; charset=utf-8\r
      Content-Transfer-Encoding: quoted-printable\r
      \r
      <p>Your code is <b>123456</b></p>\r
      --b1=_x--\r
      epilogue\r

      """)
    #expect(message.text == "Your code is 123456")
    #expect(message.html == "<p>Your code is <b>123456</b></p>")
  }

  @Test func nestedMultipartPicksInlineBodiesAndSkipsAttachments() throws {
    let message = try decode(
      """
      Content-Type: multipart/mixed; boundary=outer

      --outer
      Content-Type: multipart/related; boundary="inner"

      --inner
      Content-Type: multipart/alternative; boundary=alt

      --alt
      Content-Type: text/html

      <a href="https://example.com/verify?t=1&amp;u=2">Verify</a>
      --alt--
      --inner--
      --outer
      Content-Type: text/plain; name="notes.txt"
      Content-Disposition: attachment; filename="notes.txt"

      not the body
      --outer--
      """)
    #expect(message.html == "<a href=\"https://example.com/verify?t=1&amp;u=2\">Verify</a>")
    #expect(message.text == "Verify (https://example.com/verify?t=1&u=2)")
    #expect(message.attachmentNames == ["notes.txt"])
  }

  @Test(arguments: [
    ("=?UTF-8?B?w5xiZXJ3ZWlzdW5n?=", "Überweisung"),
    ("=?utf-8?q?caf=C3=A9_cr=C3=A8me?=", "café crème"),
    ("=?ISO-8859-1?Q?Gr=FC=DFe?= aus =?iso-8859-1?b?S/Zsbg==?=", "Grüße aus Köln"),
    ("=?utf-8?B?SGVs?= =?utf-8?B?bG8=?=", "Hello"),
    ("=?windows-1252?Q?=80_5?=", "€ 5"),
    ("=?us-ascii?Q?plain?= text", "plain text"),
    ("=?utf-8?X?bad?= =?broken", "=?utf-8?X?bad?= =?broken"),
  ])
  func encodedWordSubjects(encoded: String, decoded: String) throws {
    let message = try decode("Subject: \(encoded)\r\n\r\nbody")
    #expect(message.subject == decoded)
  }

  @Test func latin1Body() throws {
    var raw = Array("Content-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n".utf8)
    raw += [0x47, 0x72, 0xFC, 0xDF, 0x65]  // "Grüße"
    #expect(try MIMEDecoder.decode(raw).text == "Grüße")
  }

  @Test func windows1252AndUnknownCharsets() throws {
    var raw = Array("Content-Type: text/plain; charset=cp1252\r\n\r\n".utf8)
    raw += [0x93, 0x68, 0x69, 0x94]
    #expect(try MIMEDecoder.decode(raw).text == "\u{201C}hi\u{201D}")
    var unknown = Array("Content-Type: text/plain; charset=koi8-r\r\n\r\n".utf8)
    unknown += [0x68, 0xFF, 0x69]
    #expect(try MIMEDecoder.decode(unknown).text == "h\u{FFFD}i")
  }

  @Test func htmlOnlyMessageDerivesText() throws {
    let message = try decode(
      """
      Content-Type: text/html; charset=utf-8

      <html><head><style>p { color: red }</style><script>alert(1)</script></head>
      <body><p>Hello&nbsp;J&eacute;r&ocirc;me &amp; co &#8212; &#x263A;</p>
      <div>Click <a href="https://example.com/x">https://example.com/x</a><br>or <a href='https://e.com/y'></a></div>
      </body></html>
      """)
    #expect(message.text == "Hello Jér&ocirc;me & co — ☺\n\nClick https://example.com/x\nor https://e.com/y")
  }
}
