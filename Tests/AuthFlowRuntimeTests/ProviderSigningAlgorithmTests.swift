import AuthFlowCore
import AuthFlowJOSE
import AuthFlowResults
import Testing

/// A conforming provider signs ID tokens with any algorithm it lists, and with one key may leave
/// `kid` out (OIDC Core §10.1): the mock plays each (`id_token_signing_alg`, `id_token_kid`), and
/// authflow signs in on it as an `oidc` tenant, over real HTTP, verifying every token.
@Suite("ID tokens signed with every algorithm a provider may use")
struct ProviderSigningAlgorithmTests {
  static let signIn = """
    scenario: sign in
    client: web
    steps:
      - id: login
        web_auth:
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect:
          id_token_valid: true
    """

  @Test(arguments: JWSAlgorithm.signing)
  func signedInWhateverTheAlgorithmWithoutKid(_ algorithm: JWSAlgorithm) async throws {
    let harness = try await OIDCHarness.start(
      settings: ["id_token_signing_alg: \(algorithm.rawValue)", "id_token_kid: false", "updated_at_format: epoch"])
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let report = try await harness.run([Self.signIn], on: tenant)
    await harness.stop()
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .passed, "\(algorithm.rawValue): \(scenario.problemSummary)")
    let token = try #require(scenario.step("login")?.result?.member("id_token"))
    #expect(token.member("header")?.member("alg")?.stringValue == algorithm.rawValue)
    #expect(token.member("header")?.member("kid") == nil)
    #expect(token.member("signature_valid")?.boolValue == true)
  }

  /// The same tokens on a `mock` tenant, which keeps Auth0.swift's rules: RS256 only.
  @Test func theMockTenantKeepsAuth0sRules() async throws {
    let harness = try await OIDCHarness.start(settings: ["id_token_signing_alg: ES256"])
    let report = try await harness.run([Self.signIn], on: harness.mock.context)
    await harness.stop()
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .failed)
    #expect(
      scenario.problemSummary.contains("Expected the ID token to be signed with \"RS256\""),
      "\(scenario.problemSummary)")
  }

  /// An algorithm the provider's discovery does not list is refused, even when the signature holds.
  @Test func anAlgorithmDiscoveryDoesNotListIsRefused() async throws {
    let harness = try await OIDCHarness.start(settings: ["id_token_signing_alg: ES384", "updated_at_format: epoch"])
    var tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    tenant.provider?.idTokenSigningAlgValuesSupported = ["RS256"]
    let report = try await harness.run([Self.signIn], on: tenant)
    await harness.stop()
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .failed)
    #expect(scenario.problemSummary.contains("id_token_signing_alg_values_supported"), "\(scenario.problemSummary)")
  }
}
