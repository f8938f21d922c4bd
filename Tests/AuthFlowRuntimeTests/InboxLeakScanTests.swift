import AuthFlowCore
import AuthFlowInbox
import AuthFlowMail
import Foundation
import Testing

/// The codes and links read from a real inbox are secrets in every output — the trace included,
/// which prints the inbox's answer before `outbox` has cut anything out of it. A code of a
/// provider's own shape (django-allauth's `QWQG-FWXS`: letters, no digits) is found only by the
/// tenant's pattern: `outbox` sends it to the inbox, which cuts the code out itself and answers it
/// as `code`, so the trace knows it as a secret from the first byte. Removing either half (the
/// pattern sent, or the inbox's answer) makes this test fail.
@Suite struct InboxLeakScanTests {
  static let code = "QWQG-FWXS"
  static let ticket = "T0pS3cr3tTicket-4711"
  static let address = "qa+leak1@test.example.com"

  static func project(_ apiURL: String) -> String {
    """
    default_tenant: mail
    tenants:
      mail:
        kind: mock
        inbox:
          http: "\(apiURL)"
          address: "qa+{id}@test.example.com"
          patterns:
            code: "(?m)^([BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4})\\\\r?$"
    """
  }

  static let reading = """
    scenario: The provider's code and link are read from the inbox
    requires: [inbox]
    steps:
      - id: code
        outbox: { to: "\(address)", subject: "Sign-In Code" }
        expect:
          code: { matches: "^[B-Z]{4}-[B-Z]{4}$" }
          subject: { contains: Sign-In Code }
      - id: reset
        outbox: { to: "\(address)", subject: "Reset" }
        expect:
          link: { contains: "ticket=" }
    """

  /// A failure shows the actual value of what it compared: masked.
  static let failing = """
    scenario: A wrong expectation prints the code it read, masked
    requires: [inbox]
    steps:
      - id: code
        outbox: { to: "\(address)", subject: "Sign-In Code" }
        expect:
          code: WRONG-CODE
    """

  @Test func noCodeOrLinkFromTheInboxAppearsInAnyOutput() async throws {
    let inbox = try await InboxServer.start(InboxServer.Configuration(smtp: nil))
    defer { Task { await inbox.stop() } }
    inbox.store.add(
      InboundMessage(
        from: "no-reply@provider.example", to: [Self.address], subject: "[provider] Sign-In Code",
        text: "Your sign-in code is listed below.\r\n\r\n\(Self.code)\r\n\r\nThank you."))
    inbox.store.add(
      InboundMessage(
        from: "no-reply@provider.example", to: [Self.address], subject: "Reset your password",
        text: "Open https://provider.example/lo/reset?ticket=\(Self.ticket) to choose a new one."))
    let run = try await SessionHarness.run(
      scenarios: [("reading.yaml", Self.reading), ("failing.yaml", Self.failing)], project: Self.project(inbox.apiURL))
    let report = try #require(run.outcome.report, "\(run.console)")
    let statuses = Dictionary(report.scenarios.map { ($0.file.hasSuffix("/failing.yaml"), $0.status) }) { a, _ in a }
    #expect(statuses[false] == .passed, "\(run.console) \(run.reports.first ?? "")")
    #expect(statuses[true] == .failed)
    // The inbox's answers were traced: the scan below looked at them.
    #expect(run.trace.contains { $0.contains("api/v1/messages") })
    for text in run.texts {
      #expect(!text.contains(Self.code), "the code leaked: \(text.prefix(300))")
      #expect(!text.contains(Self.ticket), "the ticket leaked: \(text.prefix(300))")
    }
  }
}
