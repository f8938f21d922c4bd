import Foundation
import Testing

@testable import AuthFlowMail

/// Python's `smtplib` (a third-party client) against the receiver.
@Suite struct PythonClientTests {
  /// Sends one message with `smtplib`, as the JSON options say; prints `ok` on success.
  static let script = """
    import json, smtplib, ssl, sys
    from email.message import EmailMessage
    o = json.loads(sys.argv[1])
    s = smtplib.SMTP("127.0.0.1", o["port"], local_hostname="client.test", timeout=60)
    s.ehlo()
    if o.get("cafile"):
        s.starttls(context=ssl.create_default_context(cafile=o["cafile"]))
        s.ehlo()
    if o.get("mechanism"):
        s.user, s.password = o["user"], o["password"]
        s.auth(o["mechanism"], getattr(s, "auth_" + o["mechanism"].lower()))
    m = EmailMessage()
    m["From"] = "Sender <sender@example.com>"
    m["To"] = ", ".join(o["to"])
    m["Subject"] = o["subject"]
    m.set_content(o["text"])
    if o.get("html"):
        m.add_alternative(o["html"], subtype="html")
    s.send_message(m, from_addr="bounce@example.com", to_addrs=o["rcpt"])
    s.quit()
    print("ok")
    """

  private struct Options: Encodable {
    var port: Int
    var to = ["Jane Doe <jane@example.com>"]
    var rcpt = ["jane@example.com", "audit@example.com"]
    var subject = "Plain hello"
    var text = "Hello from smtplib"
    var html: String?
    var cafile: String?
    var mechanism: String?
    var user: String?
    var password: String?
  }

  private func send(_ options: Options) async throws -> ExternalProcess.Result {
    let json = try String(decoding: JSONEncoder().encode(options), as: UTF8.self)
    return try await ExternalProcess.run(["python3", "-c", Self.script, json])
  }

  @Test func plainMessage() async throws {
    try await withTestServer { server in
      let result = try await send(Options(port: server.port))
      #expect(result.status == 0, "\(result.error)")
      let messages = server.store.messages(to: "JANE@example.com")
      #expect(messages.count == 1)
      #expect(messages.first?.subject == "Plain hello")
      #expect(messages.first?.text == "Hello from smtplib\r\n")
      #expect(messages.first?.envelopeFrom == "bounce@example.com")
      #expect(messages.first?.recipients == ["jane@example.com", "audit@example.com"])
      #expect(messages.first?.from == "sender@example.com")
    }
  }

  @Test func multipartWithHTMLAndNonASCIISubject() async throws {
    try await withTestServer { server in
      var options = Options(port: server.port)
      options.subject = "Ihr Bestätigungscode für Zürich ✓"
      options.text = "Code: 424242 — grüße"
      options.html = "<p>Code: <b>424242</b> <a href=\"https://example.com/v?c=424242&x=1\">verify</a></p>"
      let result = try await send(options)
      #expect(result.status == 0, "\(result.error)")
      let message = server.store.messages().first
      #expect(message?.subject == "Ihr Bestätigungscode für Zürich ✓")
      #expect(message?.text == "Code: 424242 — grüße\n" || message?.text == "Code: 424242 — grüße\r\n")
      #expect(message?.html?.contains("https://example.com/v?c=424242&x=1") == true)
    }
  }

  @Test func startTLS() async throws {
    let certificate = try await TestCertificate.shared.value
    let configuration = SMTPConfiguration(
      tls: SMTPConfiguration.TLS(
        certificateChainPath: certificate.certificatePath, privateKeyPath: certificate.keyPath),
      requireTLS: true)
    try await withTestServer(configuration) { server in
      var options = Options(port: server.port)
      options.cafile = certificate.certificatePath
      options.subject = "over TLS"
      let result = try await send(options)
      #expect(result.status == 0, "\(result.error)")
      #expect(server.store.messages().map(\.subject) == ["over TLS"])
    }
  }

  @Test(arguments: ["PLAIN", "LOGIN"])
  func authenticated(mechanism: String) async throws {
    let configuration = SMTPConfiguration(
      credentials: SMTPConfiguration.Credentials(user: "mailer", password: "s3cret pass"), allowPlaintextAuth: true)
    try await withTestServer(configuration) { server in
      var options = Options(port: server.port)
      options.mechanism = mechanism
      options.user = "mailer"
      options.password = "s3cret pass"
      let result = try await send(options)
      #expect(result.status == 0, "\(result.error)")
      #expect(server.store.messages().count == 1)

      options.password = "wrong"
      let refused = try await send(options)
      #expect(refused.status != 0)
      #expect(refused.error.contains("535"))
      #expect(server.store.messages().count == 1)
    }
  }

  @Test func authOverStartTLS() async throws {
    let certificate = try await TestCertificate.shared.value
    let configuration = SMTPConfiguration(
      tls: SMTPConfiguration.TLS(
        certificateChainPath: certificate.certificatePath, privateKeyPath: certificate.keyPath),
      credentials: SMTPConfiguration.Credentials(user: "u", password: "p"))
    try await withTestServer(configuration) { server in
      var options = Options(port: server.port)
      options.cafile = certificate.certificatePath
      options.mechanism = "PLAIN"
      options.user = "u"
      options.password = "p"
      let result = try await send(options)
      #expect(result.status == 0, "\(result.error)")
      #expect(server.store.messages().count == 1)
    }
  }
}
