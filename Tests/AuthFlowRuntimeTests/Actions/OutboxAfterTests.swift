import AuthFlowCore
import AuthFlowResults
import Testing

/// `outbox`'s `after:` on the embedded mock, over real HTTP: only messages that arrived once the
/// named step had started count. Each test fails if the filter or the mark is removed.
@Suite struct OutboxAfterTests {
  /// A resend: without the filter `count` is 2 and the first message is counted with the second.
  @Test func onlyWhatTheResendSentIsRead() async throws {
    let report = try await MockHarness.run(
      """
      scenario: resend
      requires: [inbox]
      vars: { email: "${{ random_email() }}" }
      steps:
        - id: start
          passwordless_start: { email: "${{ vars.email }}", send: code }
        - id: first
          outbox: { to: "${{ vars.email }}" }
        - id: resend
          passwordless_start: { email: "${{ vars.email }}", send: code }
        - id: second
          outbox: { to: "${{ vars.email }}", after: resend }
          expect:
            count: 1
            id: { gt: "${{ steps.first.id }}" }
        - id: everything
          outbox: { to: "${{ vars.email }}" }
          expect: { count: 2, id: "${{ steps.second.id }}" }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  /// Nothing sent after the mark: the step fails and names what did arrive before it (a read
  /// without the filter would pass on the earlier message).
  @Test func aMessageSentBeforeTheStepDoesNotCount() async throws {
    let report = try await MockHarness.run(
      """
      scenario: nothing after
      requires: [inbox]
      vars: { email: "${{ random_email() }}" }
      steps:
        - id: start
          passwordless_start: { email: "${{ vars.email }}", send: code }
        - id: later
          wait: 10ms
        - id: read
          outbox: { to: "${{ vars.email }}", after: later, timeout: 300ms }
      """)
    #expect(report.status == .failed)
    let message = try #require(report.step("read")?.problems.first?.message)
    #expect(message.contains("expected at least 1 message to the address within 300ms, found 0"), "\(message)")
    #expect(message.contains("(to the address: email '") && message.contains("verification code'"), "\(message)")
  }

  /// A step skipped by its `if:` took no mark: reading after it fails, saying why.
  @Test func aSkippedStepHasNoMark() async throws {
    let report = try await MockHarness.run(
      """
      scenario: skipped mark
      requires: [inbox]
      vars: { email: "${{ random_email() }}" }
      steps:
        - id: maybe
          passwordless_start: { email: "${{ vars.email }}", send: code }
          if: ${{ false }}
        - id: read
          outbox: { to: "${{ vars.email }}", after: maybe, timeout: 300ms }
      """)
    #expect(report.status == .failed)
    let message = try #require(report.step("read")?.problems.first?.message)
    #expect(message.contains("`after: maybe` reads what arrived after step 'maybe' started, but it did not run"))
  }
}
