import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// `severity: warning` at run time, against the embedded mock over real HTTP: a warning is
/// reported and the step passes; the same check without it fails; environment errors stay errors.
@Suite("Severity at run time")
struct SeverityRunTests {
  static func discovery(_ expectation: String, stepSeverity: String? = nil) -> String {
    var lines = ["scenario: severity", "steps:", "  - id: discovery"]
    if let stepSeverity { lines.append("    severity: \(stepSeverity)") }
    lines += [
      "    http: { url: .well-known/openid-configuration }", "    expect:", "      status: 200", expectation,
      "  - id: after", "    assert: ${{ steps.discovery.status == 200 }}",
    ]
    return lines.joined(separator: "\n")
  }

  @Test("a failed warning check passes the step, is reported, and its dependants run")
  func warningPasses() async throws {
    let report = try await MockHarness.run(
      Self.discovery("      body.issuer: { equals: not-the-issuer, severity: warning }"))
    #expect(report.status == .passed, "\(report.problemSummary)")
    let step = try #require(report.steps.first { $0.id == "discovery" })
    #expect(step.status == .passed)
    #expect(step.problems.map(\.severity) == [.warning])
    #expect(step.problems.first?.message.contains("expected body.issuer to equal") == true)
    #expect(report.steps.first { $0.id == "after" }?.status == .passed)
    #expect(report.warnings.count == 1)
  }

  @Test("the same check without severity fails the step and skips its dependants")
  func errorFails() async throws {
    let report = try await MockHarness.run(Self.discovery("      body.issuer: { equals: not-the-issuer }"))
    #expect(report.status == .failed)
    #expect(report.steps.first { $0.id == "discovery" }?.problems.map(\.severity) == [.error])
    #expect(report.steps.first { $0.id == "after" }?.status == .skipped)
  }

  @Test("a step's severity demotes its assertions, and an expectation's own severity wins")
  func stepSeverity() async throws {
    let warned = try await MockHarness.run(
      Self.discovery("      body.issuer: { equals: not-the-issuer }", stepSeverity: "warning"))
    #expect(warned.status == .passed)
    let strict = try await MockHarness.run(
      Self.discovery("      body.issuer: { equals: not-the-issuer, severity: error }", stepSeverity: "warning"))
    #expect(strict.status == .failed)
  }

  @Test("a false assert and an unexpected protocol error are warnings on a warning step")
  func demotedActionAndProtocolErrors() async throws {
    let report = try await MockHarness.run(
      """
      scenario: demoted
      steps:
        - id: false_assert
          severity: warning
          assert: { that: "${{ 1 == 2 }}", message: a SHOULD that does not hold }
        - id: bad_grant
          needs: []
          severity: warning
          token: { body: { grant_type: refresh_token, refresh_token: not-a-refresh-token } }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let messages = report.warnings.map(\.message)
    #expect(messages.contains("a SHOULD that does not hold"))
    #expect(messages.contains { $0.contains("the action failed with 'invalid_grant'") }, "\(messages)")
  }

  @Test("an environment error stays an error on a warning step")
  func environmentStaysAnError() async throws {
    let report = try await MockHarness.run(
      """
      scenario: unreachable
      steps:
        - severity: warning
          http: { url: "http://127.0.0.1:1/unreachable" }
          expect: { status: 200 }
      """)
    #expect(report.status == .error)
    #expect(report.steps.first?.problems.first?.severity == .error)
  }
}
