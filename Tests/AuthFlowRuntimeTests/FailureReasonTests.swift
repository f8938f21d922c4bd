import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import Testing

/// A failed check says why (item 5): the ID-token check that failed, not only `false`; and the
/// dependants a failed step kept from running are recorded against it.
@Suite("Failure messages carry the reason")
struct FailureReasonTests {
  @Test func idTokenValidityFailureNamesTheCheck() async throws {
    let report = try await MockHarness.run(
      """
      scenario: A token signed with a key the JWKS does not hold
      client: native
      steps:
        - id: token
          mock_sign: { header: { kid: k2 } }
        - id: check
          validate_id_token: { id_token: "${{ steps.token.token }}" }
          expect: { id_token_valid: true }
      """)
    let problem = try #require(report.step("check")?.problems.first)
    #expect(
      problem.message
        == #"expected id_token_valid to equal true, found false: the 'kid' check failed — Could not find a public key for Key ID (kid) "k2""#
    )
  }

  @Test func existsReadsAsASentence() async throws {
    let report = try await MockHarness.run(
      """
      scenario: No refresh token without offline_access
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
          expect: { refresh_token: { exists: true }, token_type: { exists: false } }
      """)
    let messages = try #require(report.step("login")).problems.map(\.message)
    #expect(messages.count == 2)
    #expect(messages.contains { $0.hasPrefix("expected refresh_token to exist, found nothing at this path") })
    #expect(messages.contains(#"expected token_type not to exist, found "Bearer""#))
  }

  @Test func skippedDependantsAreRecordedAgainstTheFailedStep() async throws {
    let report = try await MockHarness.run(
      """
      scenario: A failed step skips what follows
      steps:
        - id: login
          assert: { that: false, message: stop }
        - id: renew
          assert: true
        - id: reuse
          assert: true
      """)
    #expect(report.step("renew")?.blockedBy == "login")
    #expect(report.step("reuse")?.blockedBy == "login")
    #expect(report.step("login")?.blockedBy == nil)
  }
}
