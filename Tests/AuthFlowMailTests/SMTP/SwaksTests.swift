import Foundation
import Testing

@testable import AuthFlowMail

/// swaks (a second third-party client), pipelining its whole transaction.
@Suite struct SwaksTests {
  @Test(
    .enabled(
      if: ExternalProcess.isInstalled("swaks")
        || ProcessInfo.processInfo.environment["AUTHFLOW_REQUIRE_MAILSERVER"] == "1",
      "swaks is not installed (apt-get install swaks); .ci/run installs it and requires this test"))
  func pipelinedTransaction() async throws {
    try await withTestServer { server in
      let result = try await ExternalProcess.run([
        "swaks", "--server", "127.0.0.1", "--port", "\(server.port)", "--pipeline", "--from", "s@example.com",
        "--to", "r1@example.com,r2@example.com", "--header", "Subject: from swaks", "--body", "swaks body",
        "--timeout", "5", "--helo", "swaks.test",
      ])
      #expect(result.status == 0, "\(result.output)\(result.error)")
      #expect(result.output.contains("PIPELINING"))
      let message = server.store.messages(to: "r2@example.com").first
      #expect(message?.subject == "from swaks")
      #expect(message?.recipients == ["r1@example.com", "r2@example.com"])
      #expect(message?.text.contains("swaks body") == true)
    }
  }
}
