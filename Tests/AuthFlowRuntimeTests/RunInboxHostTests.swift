import AuthFlowCore
import AuthFlowRun
import AuthFlowRuntime
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The receiver a run starts for `inbox.smtp`, as the profile configures it: with `auth` and no
/// `tls`, a real client (Python's smtplib) logs in over plain SMTP and delivers; without the
/// credentials it is refused.
@Suite struct RunInboxHostTests {
  static func smtplib(port: Int, password: String?) async throws -> (status: Int32, output: String) {
    let script = """
      import smtplib, sys
      s = smtplib.SMTP("127.0.0.1", int(sys.argv[1]), timeout=30)
      if sys.argv[2]:
          s.login("auth0", sys.argv[2])
      s.sendmail("a@example.com", ["qa+auth@test.example.com"], b"Subject: auth\\r\\n\\r\\nYour code is 246810\\r\\n")
      s.quit()
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, String(port), password ?? ""]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    for await _ in finished.stream {}
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, text)
  }

  @Test func authWithoutTLSIsOfferedInTheClearAndRequired() async throws {
    let receiver = try await RunInboxHost().start(
      InboxReceiverSettings(host: "127.0.0.1", port: 0, user: "auth0", password: "smtp-Secret-1"))
    defer { Task { await receiver.stop() } }
    let refused = try await Self.smtplib(port: receiver.smtpPort, password: nil)
    #expect(refused.status != 0)
    #expect(refused.output.contains("530"), "\(refused.output)")
    let accepted = try await Self.smtplib(port: receiver.smtpPort, password: "smtp-Secret-1")
    #expect(accepted.status == 0, "\(accepted.output)")
    let url = try #require(URL(string: receiver.apiURL + "api/v1/messages?to=qa%2Bauth@test.example.com"))
    let (data, _) = try await URLSession.shared.data(from: url)
    let messages = try #require(try Value(json: data).member("messages")?.arrayValue)
    #expect(messages.count == 1)
    #expect(messages.first?.member("code")?.stringValue == "246810")
  }
}
