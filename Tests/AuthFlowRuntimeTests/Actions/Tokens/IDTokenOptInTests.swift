import AuthFlowCore
import AuthFlowJOSE
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowTestSupport
import Foundation
import Hummingbird
import Testing

/// `validate_id_token: true` on the credential actions other than Web Auth (Issue 4).
@Suite struct IDTokenOptInTests {
  @Test("login and renew validate the mock's ID tokens when asked, and record id_token_valid")
  func validOnTheMock() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Opted-in validation passes
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            scope: openid offline_access
            validate_id_token: true
          expect:
            id_token_valid: true
            id_token.signature_valid: true
        - id: plain
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
          expect:
            id_token_valid: { exists: false }
        - id: renew
          renew: { refresh_token: "${{ steps.login.refresh_token }}", validate_id_token: true }
          expect:
            id_token_valid: true
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("A failed check fails the step with the docs/protocol.md §5 message, unless expect names id_token_valid")
  func failureFailsTheStep() async throws {
    let report = try await MockHarness.run(
      """
      scenario: Opted-in validation fails
      client: native
      steps:
        - id: unchecked_nonce
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            validate_id_token: true
            nonce: a-nonce-the-token-does-not-carry
        - id: expected_failure
          needs: []
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            validate_id_token: true
            nonce: a-nonce-the-token-does-not-carry
          expect:
            id_token_valid: false
            id_token_error: Nonce (nonce) claim must be a string present in the ID token
      """)
    let failed = try #require(report.step("unchecked_nonce"))
    #expect(failed.status == .failed)
    #expect(failed.problems.map(\.message) == ["Nonce (nonce) claim must be a string present in the ID token"])
    #expect(report.step("expected_failure")?.status == .passed, "\(report.problemSummary)")
  }

  /// A tenant whose token endpoint answers an ID token signed by `key` with `claims` (and itself
  /// as issuer), and publishes the key.
  static func tenant(
    key: SigningKey, claims: [String: Value], _ body: (String) async throws -> ScenarioReport
  )
    async throws -> ScenarioReport
  {
    try await LoopbackServer.with({ router in
      router.get("/.well-known/jwks.json") { _, _ in
        let jwks = try JSONEncoder().encode(JWKSet(keys: [key.publicJWK].compactMap { $0 }))
        return Response.json(String(decoding: jwks, as: UTF8.self))
      }
      router.post("/oauth/token") { request, _ in
        var claims = claims
        claims["iss"] = .string("http://\(request.head.authority ?? "")/")
        let token = try key.sign(claims: claims)
        return Response.json(
          #"{"access_token":"opaque-access-1234567","token_type":"Bearer","expires_in":60,"id_token":"\#(token)"}"#)
      }
    }) { base in try await body(base + "/") }
  }

  static let scenario = """
    scenario: A token with a foreign audience
    client: native
    steps:
      - id: checked
        token: { body: { grant_type: client_credentials }, validate_id_token: true }
      - id: unchecked
        needs: []
        token: { body: { grant_type: client_credentials } }
    """

  @Test("A token for another audience, signed by the tenant's published key, fails only when opted in")
  func foreignAudience() async throws {
    let key = try SigningKey.generateRSA(kid: "k1")
    let now = Int(Date().timeIntervalSince1970)
    let report = try await Self.tenant(
      key: key,
      claims: [
        "sub": .string("auth0|x"), "aud": .string("someone-else"), "iat": .int(now),
        "exp": .int(now + 600),
      ]
    ) { base in
      var harness = ScenarioHarness(baseURL: base)
      harness.clients = ["native": .object(["client_id": .string("client-abc")])]
      return try await harness.run(Self.scenario)
    }
    let checked = try #require(report.step("checked"))
    #expect(checked.status == .failed)
    #expect(
      checked.problems.first?.message
        == "Audience (aud) claim mismatch in the ID token; expected (client-abc) but found (someone-else)",
      "\(report.problemSummary)")
    #expect(checked.result?.member("id_token_valid") == .bool(false))
    #expect(report.step("unchecked")?.status == .passed)
  }
}
