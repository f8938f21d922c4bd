import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Hummingbird
import Testing

/// `authflow doctor`'s checks, against the embedded mock (healthy), the mock seen as an `oidc`
/// tenant with a wrong issuer or broken client profiles, an unreachable issuer and a provider
/// whose JWKS is not a JWK set.
@Suite("Tenant doctor")
struct TenantDoctorTests {
  static func diagnose(
    _ profile: TenantProfile, secrets: SecretRegistry = SecretRegistry()
  ) async throws
    -> DoctorReport
  {
    let transport = LiveTransport()
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let report = try await TenantDoctor(transport: transport).diagnose(profile, resolver: resolver)
    try? await transport.shutdown()
    return report
  }

  static func profile(_ yaml: String) throws -> TenantProfile {
    let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    return try #require(config?.tenant(named: "op"))
  }

  @Test("the embedded mock passes every check, and no secret is printed")
  func embeddedMockPasses() async throws {
    let report = try await Self.diagnose(try #require(ProjectConfig.embedded.tenants.first))
    let text = report.render()
    #expect(report.exitCode == .success, "\(text)")
    #expect(report.failures.isEmpty)
    #expect(text.contains("serves a discovery document"))
    #expect(text.contains("is the configured one"))
    #expect(text.contains(".well-known/jwks.json: 1 key ("))
    #expect(
      text.contains("web: client_id web-client-id; redirect_uri https://web.example.com/callback; client_secret set"))
    #expect(text.contains("  ✓ pkce — built into the mock tenant"))
    #expect(text.contains("m2m: client_id m2m-client-id; client_secret set"), "no redirect_uri needed for m2m")
    #expect(!text.contains("web-client-secret"))
    #expect(!text.contains("m2m-client-secret"))
    #expect(text.hasSuffix("No problems found: exit 0"))
  }

  @Test("an issuer that differs from the discovered one is reported with the fix, exit 1")
  func issuerMismatch() async throws {
    let harness = try await OIDCHarness.start()
    var issuer = harness.issuer
    issuer.removeLast()
    let report = try await Self.diagnose(try Self.profile(OIDCHarness.profileYAML(issuer: issuer)))
    await harness.stop()
    #expect(report.exitCode == .failure)
    let failure = try #require(report.failures.first)
    #expect(failure.message == "issuer \(harness.issuer) differs from the configured \(issuer)")
    #expect(failure.fix?.contains("set `issuer: \(harness.issuer)`") == true)
    #expect(report.failures.count == 1, "\(report.render())")
    #expect(report.render().contains("✓ pkce — discovery: code_challenge_methods_supported contains S256"))
  }

  @Test("broken client profiles: no redirect_uri, no secret, a grant the provider lacks, relative redirect")
  func brokenClients() async throws {
    let harness = try await OIDCHarness.start()
    let yaml = """
      tenants:
        op:
          kind: oidc
          issuer: \(harness.issuer)
          clients:
            native: { client_id: native-client-id }
            web: { client_id: web-client-id, redirect_uri: /callback, token_endpoint_auth_method: client_secret_basic }
            odd: { client_id: odd, redirect_uri: "https://app.example.com/cb", grant_types: [urn:example:grant] }
      """
    let report = try await Self.diagnose(try Self.profile(yaml))
    await harness.stop()
    #expect(report.exitCode == .failure)
    let messages = report.failures.map(\.message)
    #expect(messages.contains("native: no redirect_uri: web_auth and logout cannot run with this client"))
    #expect(messages.contains("web: redirect_uri '/callback' is not an absolute URI"))
    #expect(messages.contains("web: a confidential client without client_secret"))
    #expect(messages.contains { $0.hasPrefix("odd: grant type urn:example:grant is not in grant_types_supported") })
    #expect(report.failures.allSatisfy { $0.fix != nil })
  }

  @Test("a redirect_uri is needed only by clients whose grants go through the browser")
  func redirectOnlyForBrowserGrants() async throws {
    let harness = try await OIDCHarness.start()
    let yaml = """
      tenants:
        op:
          kind: oidc
          issuer: \(harness.issuer)
          clients:
            ropc: { client_id: native-client-id, grant_types: [password] }
            browser: { client_id: native-client-id, grant_types: [authorization_code, refresh_token] }
      """
    let report = try await Self.diagnose(try Self.profile(yaml))
    await harness.stop()
    let messages = report.failures.map(\.message)
    #expect(messages == ["browser: no redirect_uri: web_auth and logout cannot run with this client"])
  }

  @Test("an unreachable issuer is an environment failure: exit 3")
  func unreachable() async throws {
    let yaml = """
      tenants:
        op: { kind: oidc, issuer: "http://127.0.0.1:1/o", clients: { native: { client_id: x } } }
      """
    let report = try await Self.diagnose(try Self.profile(yaml))
    #expect(report.exitCode == .environment)
    #expect(
      report.render().contains(
        "✗ could not fetch the discovery document http://127.0.0.1:1/o/.well-known/openid-configuration"))
  }

  @Test("a JWKS that is not a JWK set is an environment failure: exit 3")
  func brokenJWKS() async throws {
    let report = try await LoopbackServer.with(
      { router in
        router.get("o/.well-known/openid-configuration") { request, _ in
          let base = "http://\(request.head.authority ?? "")/o"
          return Response.json(
            #"{"issuer":"\#(base)","authorization_endpoint":"\#(base)/authorize/","token_endpoint":"\#(base)/token/","jwks_uri":"\#(base)/jwks/","response_types_supported":["code"]}"#
          )
        }
        router.get("o/jwks") { _, _ in Response.json(#"["not a key set"]"#) }
      },
      { base in
        let yaml = """
          tenants:
            op:
              kind: oidc
              issuer: \(base)/o
              clients: { native: { client_id: x, redirect_uri: "https://app.example.com/cb" } }
          """
        return try await Self.diagnose(try Self.profile(yaml))
      })
    let text = report.render()
    #expect(report.exitCode == .environment, "\(text)")
    #expect(text.contains("/o/jwks/ answered HTTP 200 without a JWK set"))
    #expect(text.contains("· no pkce — discovery: code_challenge_methods_supported is absent"))
    #expect(text.contains("✓ authorization_code — discovery: grant_types_supported is absent; its OpenID default"))
  }
}
