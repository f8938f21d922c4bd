import Testing

@testable import AuthFlowMail

@Suite struct MalformedMIMETests {
  @Test func unterminatedMultipartKeepsTheLastPart() throws {
    let message = try MIMEDecoder.decode(
      Array(
        """
        Content-Type: multipart/alternative; boundary=b

        --b
        Content-Type: text/plain

        still readable
        """.utf8))
    #expect(message.text == "still readable")
  }

  @Test func boundaryThatNeverAppearsReadsTheBodyAsText() throws {
    let message = try MIMEDecoder.decode(
      Array("Content-Type: multipart/mixed; boundary=nope\n\njust text\n".utf8))
    #expect(message.text == "just text\n")
  }

  @Test func badBase64IsDecodedBestEffort() throws {
    let message = try MIMEDecoder.decode(
      Array("Content-Transfer-Encoding: base64\n\nSGVs!!bG8*\n===garbage".utf8))
    #expect(message.text == "Hello")
  }

  @Test func deepNestingIsRefused() throws {
    var raw = ""
    for level in 0..<1000 { raw += "Content-Type: multipart/mixed; boundary=b\(level)\n\n--b\(level)\n" }
    raw += "Content-Type: text/plain\n\ndeep\n"
    let error = #expect(throws: MIMEError.self) { try MIMEDecoder.decode(Array(raw.utf8)) }
    #expect(error?.kind == .nestingTooDeep)
    #expect(error?.limit == 8)
  }

  @Test func tooManyPartsIsRefused() throws {
    var raw = "Content-Type: multipart/mixed; boundary=b\n\n"
    for _ in 0..<200 { raw += "--b\n\npart\n" }
    let error = #expect(throws: MIMEError.self) { try MIMEDecoder.decode(Array(raw.utf8)) }
    #expect(error?.kind == .tooManyParts)
  }

  @Test func oversizedMessageAndHeaderAreRefused() throws {
    let limits = MIMELimits(messageBytes: 100, headerBytes: 50)
    let big = #expect(throws: MIMEError.self) {
      try MIMEDecoder.decode([UInt8](repeating: 65, count: 101), limits: limits)
    }
    #expect(big?.kind == .messageTooLarge)
    let header = #expect(throws: MIMEError.self) {
      try MIMEDecoder.decode(Array(("X: " + String(repeating: "a", count: 60) + "\n\nbody").utf8), limits: limits)
    }
    #expect(header?.kind == .headerTooLarge)
  }

  @Test func hugePathologicalInputsStayLinear() throws {
    let clock = ContinuousClock()
    let started = clock.now
    let inputs: [String] = [
      "Content-Type: text/html\n\n" + String(repeating: "<", count: 200_000),
      "Content-Type: text/html\n\n" + String(repeating: "<a href=x>", count: 20_000),
      "Content-Type: text/html\n\n" + String(repeating: "&#", count: 100_000),
      "Subject: " + String(repeating: "=?", count: 50_000) + "\n\nx",
      "Content-Type: multipart/mixed; boundary=b\n\n" + String(repeating: "--", count: 150_000),
      "Content-Transfer-Encoding: quoted-printable\n\n" + String(repeating: "=", count: 200_000),
    ]
    for input in inputs {
      _ = try? MIMEDecoder.decode(Array(input.utf8))
    }
    // A hang detector, not a speed test (their speed is a benchmark's business): quadratic work on
    // these 200,000-character inputs would take minutes; linear work takes well under a second.
    #expect(clock.now - started < .seconds(300))
  }

  @Test func randomMutationsNeverCrash() throws {
    let seed = Array(
      """
      From: =?utf-8?q?J=C3=B6rg?= <j@example.com>\r
      To: a@example.com\r
      Subject: =?utf-8?B?w5xiZXI=?=\r
      Content-Type: multipart/mixed; boundary="x"\r
      \r
      --x\r
      Content-Type: multipart/alternative; boundary=y\r
      \r
      --y\r
      Content-Type: text/plain; charset=iso-8859-1\r
      Content-Transfer-Encoding: quoted-printable\r
      \r
      Gr=FC=DFe=\r
      \r
      --y\r
      Content-Type: text/html\r
      Content-Transfer-Encoding: base64\r
      \r
      PHA+PGEgaHJlZj0iaHR0cHM6Ly9leGFtcGxlLmNvbSI+bGluazwvYT48L3A+\r
      --y--\r
      --x--\r

      """.utf8)
    var random = SeededRandom(seed: 0x5EED)
    let alphabet = Array("=?-<>\"&;:\r\n \t".utf8)
    for _ in 0..<2000 {
      var bytes = seed
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
        case 1: bytes[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        case 2: bytes.remove(at: position)
        default: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 40)], at: position)
        }
        if bytes.isEmpty { bytes = [0] }
      }
      _ = try? MIMEDecoder.decode(bytes)
    }
  }

  @Test func randomTextIntoEachParserNeverCrashes() {
    var random = SeededRandom(seed: 7)
    let alphabet = Array("<>/=?\"'&#;:,()@ab\\-_\r\n\t xBQ".utf8) + [0xC3, 0xA9, 0xFF]
    for _ in 0..<2000 {
      let count = Int.random(in: 0..<200, using: &random)
      let bytes = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
      let text = String(decoding: bytes, as: UTF8.self)
      _ = HTMLText.text(fromHTML: text)
      _ = EncodedWords.decode(text)
      _ = AddressList.addresses(in: text)
      _ = ContentType(parsing: text)
      _ = TransferEncoding.decodeQuotedPrintable(bytes[...])
      _ = MultipartBody.parts(of: bytes[...], boundary: "a")
    }
  }
}
