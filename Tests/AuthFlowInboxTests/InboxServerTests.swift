import AuthFlowCore
import AuthFlowInbox
import AuthFlowMail
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `authflow inbox`: a message sent by a real SMTP client (Python's smtplib) is read back over the
/// HTTP API; the webhooks take Auth0's Custom Email and Phone Provider payloads and the legacy
/// SMS gateway's; a token guards the API; hostile bodies get clear answers.
@Suite struct InboxServerTests {
  @Test func aMessageSentBySMTPIsReadOverTheAPI() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration())
    defer { Task { await inbox.stop() } }
    let port = try #require(inbox.smtpPort)
    try await Python.run(
      """
      import smtplib, sys
      from email.message import EmailMessage
      m = EmailMessage()
      m["From"] = "no-reply@tenant.example"
      m["To"] = "qa+abc123@test.example.com"
      m["Subject"] = "Ihr Bestätigungscode"
      m.set_content("Your verification code is: 482913")
      m.add_alternative('<p>Code <b>482913</b> or <a href="https://tenant.example/lo/verify?ticket=T1">verify</a></p>', subtype="html")
      with smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=10) as s:
          s.send_message(m)
      """, arguments: [String(port)])
    let body = try await HTTP.get(inbox.apiURL + "api/v1/messages?to=QA%2Babc123@test.example.com")
    let messages = try #require(body["messages"]?.arrayValue)
    #expect(messages.count == 1)
    let message = try #require(messages.first?.objectValue)
    #expect(message["subject"]?.stringValue == "Ihr Bestätigungscode")
    #expect(message["body"]?.stringValue?.contains("482913") == true)
    #expect(message["html"]?.stringValue?.contains("ticket=T1") == true)
    #expect(message["channel"]?.stringValue == "email")
    #expect(message["from"]?.stringValue == "no-reply@tenant.example")
    let none = try await HTTP.get(inbox.apiURL + "api/v1/messages?to=nobody@test.example.com")
    #expect(none["messages"]?.arrayValue?.isEmpty == true)
  }

  /// The payloads of docs/messages.md, "Webhooks": Auth0's custom-email-provider and
  /// custom-phone-provider `event.notification`, and the legacy SMS gateway's body.
  @Test func theWebhooksTakeAuth0sPayloads() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil))
    defer { Task { await inbox.stop() } }
    let email: Value = [
      "notification": [
        "message_type": "verify_email", "to": "qa+w1@test.example.com", "from": "no-reply@tenant.example",
        "subject": "Verify your email", "text": "Open https://tenant.example/u/email-verification?ticket=XYZ",
        "html": "<a href=\"https://tenant.example/u/email-verification?ticket=XYZ\">Verify</a>",
      ]
    ]
    #expect(try await HTTP.post(inbox.apiURL + "api/v1/webhook/email", json: email).status == 202)
    let phone: Value = [
      "recipient": "+15550100", "as_text": "Your verification code is 918273", "code": "918273",
      "delivery_method": "text", "message_type": "otp_verify",
    ]
    #expect(try await HTTP.post(inbox.apiURL + "api/v1/webhook/sms", json: phone).status == 202)
    let gateway: Value = ["recipient": "+15550101", "body": "Your code: 5566", "sender": "+15550000"]
    #expect(try await HTTP.post(inbox.apiURL + "api/v1/webhook/sms", json: gateway).status == 202)

    let mail = try await HTTP.get(inbox.apiURL + "api/v1/messages?to=qa%2Bw1@test.example.com")
    #expect(mail["messages"]?.arrayValue?.first?.objectValue?["subject"]?.stringValue == "Verify your email")
    let sms = try await HTTP.get(inbox.apiURL + "api/v1/messages?to=%2B15550100")
    #expect(sms["messages"]?.arrayValue?.first?.objectValue?["channel"]?.stringValue == "sms")
    #expect(sms["messages"]?.arrayValue?.first?.objectValue?["body"]?.stringValue?.contains("918273") == true)
    let legacy = try await HTTP.get(inbox.apiURL + "api/v1/messages?to=%2B15550101")
    #expect(legacy["messages"]?.arrayValue?.first?.objectValue?["body"]?.stringValue == "Your code: 5566")
  }

  @Test func hostileWebhookBodiesGetClearAnswers() async throws {
    var configuration = InboxServer.Configuration(smtp: nil)
    configuration.maxWebhookBytes = 4096
    let inbox = try await InboxServer.start(configuration)
    defer { Task { await inbox.stop() } }
    let url = inbox.apiURL + "api/v1/webhook/email"
    #expect(try await HTTP.post(url, body: Data("not json".utf8)).status == 400)
    #expect(try await HTTP.post(url, json: ["subject": "no recipient"]).status == 422)
    #expect(try await HTTP.post(url, json: ["to": .string(String(repeating: "a", count: 10_000))]).status == 413)
    #expect(try await HTTP.post(url, json: .array([])).status == 422)
    #expect(try await HTTP.get(inbox.apiURL + "api/v1/messages?after=-3", status: 400)["error"] != nil)
  }

  /// `last_id` (the mark `outbox`'s `after:` takes) counts every message, to anyone, and keeps
  /// counting across a clear; `after` and `limit` page by it.
  @Test func lastIDMarksWhatArrivedSince() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil))
    defer { Task { await inbox.stop() } }
    let list = inbox.apiURL + "api/v1/messages"
    #expect(try await HTTP.get(list + "?limit=0")["last_id"] == .int(0))
    for (recipient, body) in [
      ("+15550100", "first 111111"), ("+15550101", "other 222222"), ("+15550100", "second 333333"),
    ] {
      let sent = try await HTTP.post(
        inbox.apiURL + "api/v1/webhook/sms", json: ["recipient": .string(recipient), "body": .string(body)])
      #expect(sent.status == 202)
    }
    let marked = try await HTTP.get(list + "?limit=0")
    #expect(marked["last_id"] == .int(3))
    #expect(marked["messages"]?.arrayValue?.isEmpty == true)
    let after = try await HTTP.get(list + "?to=%2B15550100&after=1")
    #expect(after["messages"]?.arrayValue?.map { $0.objectValue?["body"]?.stringValue } == ["second 333333"])
    let newest = try await HTTP.get(list + "?to=%2B15550100&limit=1")
    #expect(newest["messages"]?.arrayValue?.map { $0.objectValue?["id"] } == [.int(3)])
    #expect(try await HTTP.delete(list).status == 204)
    #expect(try await HTTP.get(list + "?limit=0")["last_id"] == .int(3))
    #expect(try await HTTP.get(list + "?limit=x", status: 400)["error"] != nil)
  }

  /// The attacker on the network: without the token nothing is read or written; with it, it is.
  @Test func aTokenGuardsTheAPI() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil, token: "s3cret-token"))
    defer { Task { await inbox.stop() } }
    let url = inbox.apiURL + "api/v1/messages"
    #expect(try await HTTP.get(url, status: 401)["error"] != nil)
    #expect(try await HTTP.get(url, headers: ["Authorization": "Bearer s3cret-tokem"], status: 401)["error"] != nil)
    #expect(try await HTTP.get(url, headers: ["Authorization": "Bearer s3cret-token"])["messages"] != nil)
    let write = try await HTTP.post(inbox.apiURL + "api/v1/webhook/sms", json: ["recipient": "+1", "body": "x"])
    #expect(write.status == 401)
    #expect(try await HTTP.get(inbox.apiURL + "healthz")["status"]?.stringValue == "ok")
  }

  @Test func anAPIOffLoopbackNeedsAToken() async throws {
    await #expect(throws: InboxServer.StartError.self) {
      try await InboxServer.start(InboxServer.Configuration(smtp: nil, httpHost: "0.0.0.0"))
    }
  }
}

/// A small HTTP client over URLSession for the tests.
enum HTTP {
  static func get(
    _ url: String, headers: [String: String] = [:], status expected: Int = 200
  ) async throws -> [String: Value] {
    var request = URLRequest(url: try #require(URL(string: url)))
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == expected)
    return try #require(try Value(json: data).objectValue)
  }

  static func post(_ url: String, json: Value) async throws -> (status: Int, body: Data) {
    try await post(url, body: Data(json.jsonText(revealSecrets: true).utf8))
  }

  static func delete(_ url: String) async throws -> (status: Int, body: Data) {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = "DELETE"
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
  }

  static func post(_ url: String, body: Data) async throws -> (status: Int, body: Data) {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
  }
}

/// Runs a Python script (the third-party SMTP client) and fails the test with its output when it fails.
enum Python {
  static func run(_ script: String, arguments: [String] = []) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    // Waited for without blocking a thread of the cooperative pool (two on a two-core machine).
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    for await _ in finished.stream {}
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "python3 failed: \(text)")
  }
}
