import Foundation
import Testing

@testable import AuthFlowMail

#if canImport(Glibc)
  import Glibc
#endif

/// The dovecot + exim pair that `conformance/mailserver/start` runs on loopback: where it is, how
/// to send it mail, and whether it is up.
enum LoopbackMailServer {
  static let host = "127.0.0.1"
  static let smtpPort = port("AUTHFLOW_MTA_PORT", 2526)
  static let imapPort = port("AUTHFLOW_IMAP_PORT", 1143)
  static let imapsPort = port("AUTHFLOW_IMAPS_PORT", 1993)
  static let user = "qa"
  static let password = "qa-imap-Passw0rd"

  /// `AUTHFLOW_MAILSERVER_STATE`, else this repository's `conformance/.state-mailserver`.
  static let stateDirectory =
    ProcessInfo.processInfo.environment["AUTHFLOW_MAILSERVER_STATE"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("conformance/.state-mailserver")
    .path
  static var caFile: String { stateDirectory + "/tls/cert.pem" }

  /// All three ports accept a TCP connection and the CA file exists.
  static let isReachable: Bool =
    [smtpPort, imapPort, imapsPort].allSatisfy(acceptsConnections) && FileManager.default.fileExists(atPath: caFile)

  /// Whether the suite runs: when the server is up, and always when `AUTHFLOW_REQUIRE_MAILSERVER=1`
  /// (`.ci/run` starts the server and sets it, so in CI an unreachable server fails the suite
  /// instead of skipping it).
  static let shouldRun: Bool =
    isReachable || ProcessInfo.processInfo.environment["AUTHFLOW_REQUIRE_MAILSERVER"] == "1"

  static let notReachableComment: Comment =
    "the loopback mail server is not running: run conformance/mailserver/start (as root) first"

  static func configuration(
    security: IMAPConfiguration.Security, password: String = password, host: String = host
  ) -> IMAPConfiguration {
    IMAPConfiguration(
      host: host, port: security == .implicitTLS ? imapsPort : imapPort, security: security, user: user,
      password: password, trustRoots: .pemFile(caFile), connectTimeout: .seconds(300), commandTimeout: .seconds(300))
  }

  /// A fresh `qa+<random>@test.example.com`.
  static func uniqueAddress() -> String {
    "qa+\(UUID().uuidString.prefix(12).lowercased())@test.example.com"
  }

  struct SendFailed: Error, CustomStringConvertible {
    let status: Int32
    let output: String
    var description: String { "smtplib exited \(status): \(output)" }
  }

  /// Sends `message` (CRLF line ends, headers and body) over SMTP with Python's smtplib, which
  /// dot-stuffs it.
  static func send(_ message: String, to address: String) async throws {
    let script = """
      import smtplib, sys
      data = sys.stdin.buffer.read()
      with smtplib.SMTP("\(host)", \(smtpPort), timeout=5) as smtp:
          smtp.sendmail("noreply@example.org", [sys.argv[1]], data)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, address]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    // Waited for without blocking a thread of the cooperative pool (two on a two-core machine).
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.finish() }
    try process.run()
    input.fileHandleForWriting.write(Data(message.utf8))
    try input.fileHandleForWriting.close()
    for await _ in finished.stream {}
    guard process.terminationStatus == 0 else {
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw SendFailed(status: process.terminationStatus, output: text)
    }
  }

  /// A message to `address` with `body`, whose line ends (LF or CRLF) become CRLF.
  static func message(to address: String, subject: String, body: String) -> String {
    let head = "From: noreply@example.org\r\nTo: \(address)\r\nSubject: \(subject)\r\n\r\n"
    return head + body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
  }

  /// Polls `messages(to:)` (each poll a whole session) until it finds at least one, for up to 300 s.
  static func poll(
    _ address: String, configuration: IMAPConfiguration
  ) async throws -> [IMAPMessage] {
    let deadline = ContinuousClock.now + .seconds(300)
    while true {
      let found = try await IMAPClient.messages(to: address, since: Date(), configuration: configuration)
      if !found.isEmpty || ContinuousClock.now > deadline { return found }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  private static func port(_ variable: String, _ fallback: Int) -> Int {
    ProcessInfo.processInfo.environment[variable].flatMap(Int.init) ?? fallback
  }

  private static func acceptsConnections(_ port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { Glibc.close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
