import AuthFlowCore
import AuthFlowScenario
import Testing

@testable import AuthFlowRuntime

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

  /// A path that is not there names what the object it missed in has (not the result's top
  /// level), with "did you mean" when a key is a typo away, or says what the value is instead.
  @Test func aMissingPathNamesWhatItsObjectHas() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Missing paths
      steps:
        - id: a
          set: { body: { issuer: "https://x.example/", jwks_uri: "https://x.example/jwks" } }
          expect:
            body.jwks_ur: { exists: true }
            body.issuer.host: { exists: true }
            bdy.issuer: { exists: true }
      """)
    let actual = try #require(report.step("a")).problems.map(\.actual)
    #expect(
      actual == [
        "nothing at this path (did you mean 'jwks_uri'? body has: issuer, jwks_uri)",
        "nothing at this path (body.issuer is a string)",
        "nothing at this path (did you mean 'body'? the result has: body)",
      ])
  }

  /// The keys a missing-path message names are the tenant's, and masked as its values are: a
  /// body keyed by a token (a secret of the run) does not print it.
  @Test func theKeysAMissingPathNamesAreMasked() async throws {
    var harness = ScenarioHarness(baseURL: "http://127.0.0.1:9")
    harness.secrets.register("tok-keyed-secret-4242")
    let report = try await harness.run(
      """
      scenario: Secret keys
      steps:
        - id: a
          set: { body: { tok-keyed-secret-4242: 1, tok-keyed-secret-4243: 2 } }
          expect:
            body.other: { exists: true }
            body.tok-keyed-secret-4244: { exists: false }
      """)
    let step = try #require(report.step("a"))
    let texts = step.problems.flatMap { [$0.message, $0.actual ?? ""] }
    #expect(step.problems.count == 2)
    #expect(texts.allSatisfy { !$0.contains("tok-keyed-secret-4242") }, "\(texts)")
    #expect(texts.contains { $0.contains("tok-keyed-secret-4243") })
  }

  /// In an object of more than `maxKeysSuggested` keys a near key is more likely chance than a
  /// typo, and the search is bounded: no "did you mean", no near-miss warning.
  @Test func aHugeObjectGetsNoSuggestion() async throws {
    let keys = (0...StepMessages.maxKeysSuggested).map { "key\($0): 1" }.joined(separator: ", ")
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Huge object
      steps:
        - id: a
          set: { body: { \(keys) } }
          expect:
            body.key1x: { exists: true }
            body.key2x: { exists: false }
      """)
    let problems = try #require(report.step("a")).problems
    #expect(problems.count == 1)
    #expect(problems.first?.actual?.hasPrefix("nothing at this path (body has: key0, key1, ") == true)
    #expect(
      problems.first?.actual?.hasSuffix("(\(StepMessages.maxKeysSuggested + 1 - StepMessages.maxKeysShown) more))")
        == true)
  }

  /// An absence check that held where the object has a key a typo away is a warning (the run's
  /// verdict stays the checks'): `body.eror: { exists: false }` against a body with `error`
  /// checks nothing. Not when the step checks the near key too: then both names are meant.
  @Test func anAbsenceThatHeldNextToANearKeyIsAWarning() async throws {
    let report = try await ScenarioHarness(baseURL: "http://127.0.0.1:9").run(
      """
      scenario: Near misses
      steps:
        - id: a
          set: { body: { error: denied, scope: openid, connection_scope: repo } }
          expect:
            body.eror: { exists: false }
            body.scop: { not_contains: admin }
            body.connection_scopes: { exists: false }
            body.connection_scope: repo
            body.unrelated_name: { exists: false }
      """)
    let step = try #require(report.step("a"))
    #expect(step.status == .passed)
    #expect(step.problems.map(\.severity) == [.warning, .warning])
    #expect(step.problems.map(\.path) == ["body.eror", "body.scop"])
    #expect(
      step.problems.first?.message
        == "body.eror is absent, so its exists check held, but 'error' is there: if 'eror' is a misspelling, this "
        + "check passes whatever the tenant answers")
    #expect(report.status == .passed)
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

  /// After a protocol error the step did not expect, the error is the one problem: the
  /// expectations it makes moot are counted as not checked instead of each failing on its own,
  /// while those about the answer (`response`) are still checked.
  @Test func anUnexpectedErrorIsNotBuriedUnderItsConsequences() async throws {
    let report = try await MockHarness.run(
      """
      scenario: A wrong password, and expectations that assumed a login
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: not-alices-password
          expect:
            id_token: { exists: true }
            access_token: { exists: true }
            response.status: 200
      """)
    let messages = try #require(report.step("login")).problems.map(\.message)
    #expect(
      messages == [
        #"the action failed with 'invalid_grant' (HTTP 403): "Wrong email or password."; add `expect: { error.code: invalid_grant }` if this is the expected outcome; 2 expectations were not checked"#,
        "expected response.status to equal 200, found 403",
      ], "\(messages)")
  }

  @Test func anExpectedErrorChecksEveryExpectation() async throws {
    let report = try await MockHarness.run(
      """
      scenario: A wrong password, expected
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: not-alices-password
          expect:
            error.code: invalid_grant
            id_token: { exists: true }
      """)
    let messages = try #require(report.step("login")).problems.map(\.message)
    #expect(messages.count == 1, "\(messages)")
    #expect(messages.first?.hasPrefix("expected id_token to exist, found nothing") == true, "\(messages)")
  }
}
