import AuthFlowCore
import AuthFlowHTTP
import AuthFlowInbox
import AuthFlowMockHosting
import AuthFlowRun
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// `authflow doctor`'s inbox checks: an `authflow inbox` that answers and takes the token, one
/// that refuses it (exit 1) or is not there (exit 3), and `--probe`'s test message through the
/// inbox's webhook and through the run's own SMTP receiver.
@Suite("Inbox doctor")
struct InboxDoctorTests {
  static func diagnose(_ yaml: String, probe: Bool) async throws -> DoctorReport {
    let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    let profile = try #require(config?.tenants.first)
    let transport = LiveTransport()
    let secrets = SecretRegistry()
    let resolver = TenantResolver(
      embedded: MockTenantHost(), inboxHost: RunInboxHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let capabilityProbe =
      probe ? CapabilityProbe(services: RunServices(secrets: secrets, transport: transport, environment: [:])) : nil
    let report = try await TenantDoctor(transport: transport, probe: capabilityProbe, inboxHost: RunInboxHost())
      .diagnose(profile, resolver: resolver)
    try? await transport.shutdown()
    return report
  }

  static func inboxLines(_ report: DoctorReport) -> [DoctorReport.Check] {
    report.checks.filter { $0.section == .inbox }
  }

  @Test("an authflow inbox that takes the token, probed through its webhook")
  func anInboxWithItsToken() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil, token: "tok-123"))
    defer { Task { await inbox.stop() } }
    let report = try await Self.diagnose(
      "tenants:\n  op: { kind: mock, inbox: { http: { url: \"\(inbox.apiURL)\", token: tok-123 } } }", probe: true)
    let lines = Self.inboxLines(report)
    #expect(lines.map(\.outcome) == [.passed, .passed], "\(report.render())")
    #expect(lines.last?.message.contains("email webhook was read back") == true)
    #expect(!report.render().contains("tok-123"))
  }

  @Test("a refused token fails the check (exit 1); an inbox that is not there is the environment (exit 3)")
  func refusedAndUnreachable() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil, token: "tok-123"))
    let refused = try await Self.diagnose(
      "tenants:\n  op: { kind: mock, inbox: { http: { url: \"\(inbox.apiURL)\", token: wrong } } }", probe: false)
    #expect(refused.exitCode == .failure)
    #expect(Self.inboxLines(refused).first?.message.contains("refused the token") == true)
    let url = inbox.apiURL
    await inbox.stop()
    let gone = try await Self.diagnose("tenants:\n  op: { kind: mock, inbox: { http: \"\(url)\" } }", probe: false)
    #expect(gone.exitCode == .environment)
    #expect(Self.inboxLines(gone).first?.outcome == .failed)
  }

  @Test("a mock with inbox.smtp: the run's receiver gets a test message over SMTP and reads it back")
  func theRunsReceiverIsProbedOverSMTP() async throws {
    let report = try await Self.diagnose(
      "tenants:\n  op: { kind: mock, inbox: { smtp: { listen: \"127.0.0.1:0\" } } }", probe: true)
    let lines = Self.inboxLines(report)
    #expect(lines.map(\.outcome) == [.passed, .passed], "\(report.render())")
    #expect(lines.last?.message == "a test message sent over SMTP to the run's receiver was read back")
  }
}
