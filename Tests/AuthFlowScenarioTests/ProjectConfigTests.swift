import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Testing

@Suite struct ProjectConfigTests {
  private func parse(_ input: MarkedText) -> (config: ProjectConfig?, diagnostics: [Diagnostic]) {
    ProjectConfigParser().parse(input.text, file: testFile)
  }

  @Test func readsTheDesignExample() throws {
    let (parsed, diagnostics) = parse(
      MarkedText(
        """
        default_tenant: mock
        tenants:
          mock:    { kind: mock, fixture: tenants/mock.yaml }
          staging:
            kind: auth0
            domain: ${{ env.AUTH0_DOMAIN }}
            clients:
              native: { client_id: "${{ env.AUTH0_NATIVE_CLIENT_ID }}", redirect_uri: "https://app.example.com/callback" }
            users:
              alice: { email: "${{ env.ALICE_EMAIL }}", password: "${{ env.ALICE_PASSWORD }}" }
            capabilities: [passwordless, organizations, refresh_token_rotation]
            forms: { email: username }
            password_grant_returns_id_token: false
            error_statuses: { invalid_grant: 403 }
            settings: { rate_limit: 10 }
          conformance:
            kind: oidc                         # any OpenID Provider, driven by its discovery document
            issuer: http://127.0.0.1:8100/o
        """))
    expectClean(diagnostics)
    let config = try #require(parsed)
    #expect(config.defaultTenantName == "mock")
    #expect(config.tenants.map(\.name.value) == ["mock", "staging", "conformance"])
    #expect(config.tenants.map(\.kind) == [.mock, .auth0, .oidc])
    let staging = try #require(config.tenant(named: "staging"))
    if case .expression? = staging.domain {} else { Issue.record("domain should be an expression") }
    #expect(staging.client(named: "native")?.member("redirect_uri")?.literalValue == "https://app.example.com/callback")
    #expect(staging.user(named: "alice") != nil)
    #expect(staging.declares("passwordless"))
    #expect(staging.forms.first?.value.literalValue == "username")
    #expect(staging.passwordGrantReturnsIDToken == false)
    #expect(staging.errorStatuses.first?.value.literalValue == 403)
    #expect(staging.settings?.member("rate_limit")?.literalValue == 10)
    #expect(config.tenant(named: "conformance")?.issuer?.literalValue == "http://127.0.0.1:8100/o")
  }

  @Test func withoutAFileTheEmbeddedMockIsTheDefault() {
    let config = ProjectConfig.embedded
    #expect(config.defaultTenantName == "mock")
    #expect(config.tenant(named: "mock")?.kind == .mock)
    #expect(ProjectConfig(file: "authflow.yaml").tenant(named: "mock")?.kind == .mock)
  }

  @Test func problemsAreLocated() {
    let input = MarkedText(
      """
      default_tenant: 1️⃣stagin
      tenants:
        2️⃣staging:
          kind: auth0
          3️⃣issuer: https://x
          clients:
            4️⃣native: { redirect_uri: "https://x/cb" }
        5️⃣conformance:
          kind: oidc
        weird:
          kind: 6️⃣auth
        7️⃣nokind: {}
        local:
          kind: mock
          8️⃣fixtur: a.yaml
      """)
    let found = parse(input).diagnostics
    expectDiagnostic(
      found, at: input["1️⃣"], "default_tenant 'stagin' is not one of the tenants", hint: "did you mean 'staging'?")
    expectDiagnostic(
      found, at: input["2️⃣"], "tenant 'staging' of kind 'auth0' needs 'domain'",
      hint: "add 'domain: ${{ env.AUTH0_DOMAIN }}'")
    expectDiagnostic(found, at: input["3️⃣"], "'issuer' is not used by a tenant of kind 'auth0'", severity: .warning)
    expectDiagnostic(found, at: input["4️⃣"], "client 'native' of tenant 'staging' has no 'client_id'")
    expectDiagnostic(found, at: input["5️⃣"], "tenant 'conformance' of kind 'oidc' needs 'issuer'")
    expectDiagnostic(found, at: input["6️⃣"], "unknown tenant kind 'auth'", hint: "did you mean 'auth0'?")
    expectDiagnostic(found, at: input["7️⃣"], "tenant 'nokind' has no 'kind'")
    expectDiagnostic(found, at: input["8️⃣"], "unknown key 'fixtur' in tenant 'local'", hint: "did you mean 'fixture'?")
    #expect(found.count == 8)
  }

  @Test func rateLimitIsReadAndItsProblemsLocated() throws {
    let input = MarkedText(
      """
      tenants:
        paced:
          kind: mock
          rate_limit: { requests_per_minute: 600 }
        zero:
          kind: mock
          rate_limit: { requests_per_minute: 1️⃣0 }
        typo:
          kind: mock
          rate_limit: { 2️⃣request_per_minute: 5 }
        text:
          kind: mock
          rate_limit: { requests_per_minute: 3️⃣lots }
      """)
    let (config, found) = parse(input)
    #expect(config?.tenant(named: "paced")?.requestsPerMinute?.value == 600)
    expectDiagnostic(
      found, at: input["1️⃣"], "'rate_limit.requests_per_minute' must be between 1 and 1000000 (got 0)",
      hint: "the tenant's documented limit, in requests per minute")
    expectDiagnostic(
      found, at: input["2️⃣"], "unknown key 'request_per_minute' in rate_limit",
      hint: "did you mean 'requests_per_minute'?")
    expectDiagnostic(
      found, at: input["3️⃣"],
      "expected a whole number of requests for 'rate_limit.requests_per_minute', found a string")
    #expect(found.count == 4)  // and the typo's mapping lacks requests_per_minute
  }

  @Test func scenarioTenantAndClientMustExist() throws {
    let (config, _) = parse(
      MarkedText(
        """
        tenants:
          staging:
            kind: auth0
            domain: example.auth0.com
            clients:
              native: { client_id: abc }
        """))
    let input = MarkedText(
      """
      scenario: x
      tenant: 1️⃣stagin
      steps:
        - logout:
      """)
    let other = MarkedText(
      """
      scenario: x
      tenant: staging
      client: 1️⃣nativ
      steps:
        - logout:
      """)
    let project = try #require(config)
    let first = project.check(try #require(load(input).scenario))
    expectDiagnostic(
      first, at: input["1️⃣"], "tenant 'stagin' is not defined in authflow.yaml", hint: "did you mean 'staging'?")
    let second = project.check(try #require(load(other).scenario))
    expectDiagnostic(second, at: other["1️⃣"], "tenant 'staging' has no client 'nativ'", hint: "did you mean 'native'?")
  }
}
