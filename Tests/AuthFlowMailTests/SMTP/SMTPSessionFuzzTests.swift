import Testing

@testable import AuthFlowMail

@Suite struct SMTPSessionFuzzTests {
  @Test func randomLinesNeverCrash() {
    let words = [
      "EHLO x", "HELO", "MAIL FROM:<a@b>", "MAIL FROM:<", "MAIL FROM:<> SIZE=", "RCPT TO:<b@c>", "RCPT TO:<>",
      "DATA", "RSET", "AUTH PLAIN", "AUTH LOGIN", "AUTH PLAIN AHUAcA==", "=", "*", "STARTTLS", "QUIT", "\u{0}",
      "MAIL FROM:<@a,@b:c@d> BODY=8BITMIME", "AUTH", "AUTH LOGIN dQ==", "NOOP", "VRFY", "ü",
    ]
    var random = SeededRandom(seed: 42)
    let configuration = SMTPConfiguration(
      maxRecipients: 3, maxBadCommands: 1000, credentials: SMTPConfiguration.Credentials(user: "u", password: "p"),
      allowPlaintextAuth: true)
    for _ in 0..<200 {
      var session = SMTPSession(configuration: configuration)
      for _ in 0..<50 {
        var line = words[Int.random(in: 0..<words.count, using: &random)]
        if Bool.random(using: &random) {
          let cut = Int.random(in: 0...line.count, using: &random)
          line = String(line.prefix(cut)) + String(UnicodeScalar(UInt8.random(in: 0...127, using: &random)))
        }
        let outcome = session.handle(line: line)
        #expect(!outcome.replies.isEmpty)
        if outcome.action == .beginData { session.didFinishData() }
        if outcome.action == .startTLS { session.didStartTLS() }
      }
    }
  }
}
