import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// Issue 16 item 5: one decision (`ClientAuthentication`) for how a client authenticates at the
/// token endpoint, applied by the runtime and reported by `doctor`; the OpenID default
/// (`client_secret_basic`) when discovery is silent; the profile's `token_endpoint_auth_method`
/// first; Auth0 tenants as docs/protocol.md §3 says. Against a loopback provider that records what it got.
@Suite("Client authentication: one source of truth for doctor and the runtime")
struct ClientAuthenticationTests {
  static let login = """
    scenario: confidential code flow
    client: rp
    steps:
      - id: login
        web_auth: {}
        expect: { id_token_valid: true }
    """

  struct Observed {
    var report: ScenarioReport
    var doctor: DoctorReport
    var token: LoopbackProvider.Recorded
  }

  /// Runs the code flow on the `op` tenant and `doctor` on the same profile.
  static func observe(authMethods: [String]?, profileMethod: String?) async throws -> Observed {
    try await LoopbackProvider.with(.init(authMethods: authMethods)) { provider, base in
      let yaml = LoopbackProvider.profileYAML(base: base, method: profileMethod)
      let transport = LiveTransport()
      let secrets = SecretRegistry()
      let resolved = try await LoopbackProvider.resolve(yaml, transport: transport, secrets: secrets)
      let run = try await LoopbackProvider.run([login], on: resolved.context, transport: transport, secrets: secrets)
      let (config, _) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
      let profile = try #require(config?.tenant(named: "op"))
      let resolver = TenantResolver(
        embedded: MockTenantHost(), environment: [:], secrets: SecretRegistry(), projectDirectory: ".")
      let doctor = try await TenantDoctor(transport: transport).diagnose(profile, resolver: resolver)
      try? await transport.shutdown()
      let token = try #require(provider.requests(to: "/o/token").first)
      return Observed(report: try #require(run.scenarios.first), doctor: doctor, token: token)
    }
  }

  /// The method the request used on the wire.
  static func wireMethod(_ request: LoopbackProvider.Recorded) -> String {
    if request.headers["authorization"]?.hasPrefix("Basic ") == true { return "client_secret_basic" }
    return request.body.contains("client_secret=") ? "client_secret_post" : "none"
  }

  /// The method `doctor` reports for client `rp`.
  static func doctorMethod(_ report: DoctorReport) -> String? {
    let line = report.checks.first { $0.section == .clients && $0.message.hasPrefix("rp:") }?.message ?? ""
    guard let range = line.range(of: "authenticates with ") else { return nil }
    return String(line[range.upperBound...].prefix { $0 != " " })
  }

  @Test("discovery without token_endpoint_auth_methods_supported: HTTP Basic, the OpenID default")
  func silentDiscoveryMeansBasic() async throws {
    let observed = try await Self.observe(authMethods: nil, profileMethod: nil)
    #expect(observed.report.status == .passed, "\(observed.report.problemSummary)")
    let credentials = Data("\(LoopbackProvider.clientID):rp-secret-Zq9%2B%2Fx".utf8).base64EncodedString()
    #expect(observed.token.headers["authorization"] == "Basic \(credentials)")
    #expect(!observed.token.body.contains("client_secret"))
    #expect(Self.doctorMethod(observed.doctor) == "client_secret_basic", "\(observed.doctor.render())")
    #expect(
      observed.doctor.render().contains("the OpenID default: discovery omits token_endpoint_auth_methods_supported"))
    #expect(observed.doctor.failures.isEmpty, "\(observed.doctor.render())")
  }

  @Test("the profile's token_endpoint_auth_method wins over the default")
  func profileOverrideWins() async throws {
    let observed = try await Self.observe(authMethods: nil, profileMethod: "client_secret_post")
    #expect(observed.report.status == .passed, "\(observed.report.problemSummary)")
    #expect(observed.token.headers["authorization"] == nil)
    #expect(observed.token.body.contains("client_secret=rp-secret-Zq9%2B%2Fx"))
    #expect(Self.doctorMethod(observed.doctor) == "client_secret_post", "\(observed.doctor.render())")
    #expect(observed.doctor.render().contains("the client profile's token_endpoint_auth_method"))
    #expect(!observed.doctor.render().contains("rp-secret"), "doctor printed the client secret")
  }

  @Test(
    "doctor reports the method the runtime sends",
    arguments: [
      ([String]?.none, String?.none, "client_secret_basic"),
      (nil, "client_secret_post", "client_secret_post"),
      (["client_secret_post"], nil, "client_secret_post"),
      (["client_secret_post", "client_secret_basic"], nil, "client_secret_basic"),
      (["client_secret_basic"], "client_secret_basic", "client_secret_basic"),
    ])
  func doctorAndRuntimeAgree(authMethods: [String]?, profileMethod: String?, expected: String) async throws {
    let observed = try await Self.observe(authMethods: authMethods, profileMethod: profileMethod)
    #expect(observed.report.status == .passed, "\(observed.report.problemSummary)")
    #expect(Self.wireMethod(observed.token) == expected)
    #expect(Self.doctorMethod(observed.doctor) == expected, "\(observed.doctor.render())")
  }

  @Test("a method the provider does not list is a doctor failure, and the provider refuses it")
  func unlistedMethodFails() async throws {
    let observed = try await Self.observe(authMethods: ["client_secret_post"], profileMethod: "client_secret_basic")
    #expect(observed.report.status == .failed)
    #expect(Self.wireMethod(observed.token) == "client_secret_basic")
    #expect(
      observed.doctor.failures.map(\.message) == [
        "rp: token endpoint authentication client_secret_basic is not in token_endpoint_auth_methods_supported (client_secret_post)"
      ])
  }

  @Test("a token_endpoint_auth_method from the environment that authflow cannot send is a doctor failure")
  func unknownMethodFromTheEnvironment() async throws {
    try await LoopbackProvider.with(.init()) { _, base in
      let yaml = LoopbackProvider.profileYAML(base: base, method: "\"${{ env.AUTH_METHOD }}\"")
      let (config, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
      #expect(!diagnostics.hasErrors, "an expression is checked when the tenant is used")
      let profile = try #require(config?.tenant(named: "op"))
      let transport = LiveTransport()
      let resolver = TenantResolver(
        embedded: MockTenantHost(), environment: ["AUTH_METHOD": "private_key_jwt"], secrets: SecretRegistry(),
        projectDirectory: ".")
      let report = try await TenantDoctor(transport: transport).diagnose(profile, resolver: resolver)
      try? await transport.shutdown()
      #expect(report.exitCode == .failure, "\(report.render())")
      #expect(
        report.failures.map(\.message) == [
          "rp: token_endpoint_auth_method 'private_key_jwt' is not one authflow can send"
        ])
    }
  }

  @Test(
    "Auth0 tenants and the mock keep Auth0.swift's client_secret in the JSON body unless the profile says otherwise")
  func auth0KeepsTheJSONBody() {
    let client: Value = ["client_id": "a", "client_secret": .secret("s")]
    for kind in [TenantContext.Kind.auth0, .mock] {
      let resolved = ClientAuthentication.resolve(
        client: ClientProfile(client), kind: kind, provider: ProviderMetadata(issuer: "x"))
      #expect(resolved.method == .clientSecretPost)
      #expect(resolved.reason.contains("docs/protocol.md §3"))
    }
    var basic = client
    basic = .object((basic.objectValue ?? [:]).merging(["token_endpoint_auth_method": "client_secret_basic"]) { $1 })
    #expect(
      ClientAuthentication.resolve(client: ClientProfile(basic), kind: .auth0, provider: nil).method
        == .clientSecretBasic)
    #expect(
      ClientAuthentication.resolve(client: ClientProfile(client), kind: .oidc, provider: nil).method
        == .clientSecretBasic)
  }

  @Test("an unknown token_endpoint_auth_method is an error at its position, with a hint")
  func unknownMethodIsAnError() {
    let yaml = """
      tenants:
        op:
          kind: oidc
          issuer: https://op.example.com
          clients:
            rp: { client_id: rp, token_endpoint_auth_method: client_secret_basik }
            jwt: { client_id: jwt, token_endpoint_auth_method: private_key_jwt }
            env: { client_id: env, token_endpoint_auth_method: "${{ env.METHOD }}" }
      """
    let (_, diagnostics) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    let rendered = diagnostics.map(\.description)
    #expect(diagnostics.count == 2, "\(rendered)")
    #expect(
      rendered.contains {
        $0.hasPrefix("authflow.yaml:6:56: error: client 'rp' has token_endpoint_auth_method 'client_secret_basik'")
      }, "\(rendered)")
    #expect(diagnostics.first?.hint?.contains("client_secret_basic") == true)
    #expect(rendered.contains { $0.contains("'private_key_jwt', which authflow cannot send") }, "\(rendered)")
  }
}

/// Issue 16 item 7: Auth0's telemetry (`auth0Client`, `Auth0-Client`) goes to Auth0 tenants and the
/// mock only; `doctor` prints the issuer exactly as discovered.
@Suite("No Auth0 telemetry to oidc tenants")
struct ProviderTelemetryTests {
  static let scenario = """
    scenario: code flow and userinfo
    client: rp
    steps:
      - id: login
        web_auth: { telemetry: true }
      - id: me
        userinfo: { access_token: "${{ steps.login.access_token }}" }
    """

  @Test("an oidc provider gets neither the auth0Client parameter nor the Auth0-Client header")
  func noTelemetryToOIDC() async throws {
    try await LoopbackProvider.with(.init()) { provider, base in
      let transport = LiveTransport()
      let secrets = SecretRegistry()
      let tenant = try await LoopbackProvider.resolve(
        LoopbackProvider.profileYAML(base: base), transport: transport, secrets: secrets
      ).context
      let report = try await LoopbackProvider.run([Self.scenario], on: tenant, transport: transport, secrets: secrets)
      #expect(report.scenarios.first?.status == .passed, "\(report.scenarios.first?.problemSummary ?? "")")
      let authorize = try #require(provider.requests(to: "/o/authorize").first)
      #expect(authorize.query["client_id"] == LoopbackProvider.clientID, "the request was recorded")
      #expect(authorize.query["auth0Client"] == nil)
      let requests = provider.requests(to: "")
      #expect(requests.map(\.path).contains("/o/token") && requests.map(\.path).contains("/o/userinfo"))
      for request in requests {
        #expect(request.headers.keys.allSatisfy { $0.lowercased() != "auth0-client" }, "\(request.path)")
      }

      // The same provider seen as an Auth0 tenant does get them: the check above can fail.
      var auth0 = tenant
      auth0.kind = .auth0
      _ = try await LoopbackProvider.run([Self.scenario], on: auth0, transport: transport, secrets: secrets)
      try? await transport.shutdown()
      #expect(provider.requests(to: "/o/authorize").last?.query["auth0Client"] != nil)
      #expect(provider.requests(to: "/o/token").last?.headers["auth0-client"] != nil)
    }
  }

  @Test("doctor prints the issuer exactly as discovered, without a trailing slash it does not have")
  func doctorPrintsTheDiscoveredIssuer() async throws {
    try await LoopbackProvider.with(.init()) { _, base in
      let (config, _) = ProjectConfigParser().parse(LoopbackProvider.profileYAML(base: base), file: "authflow.yaml")
      let profile = try #require(config?.tenant(named: "op"))
      let transport = LiveTransport()
      let resolver = TenantResolver(
        embedded: MockTenantHost(), environment: [:], secrets: SecretRegistry(), projectDirectory: ".")
      let report = try await TenantDoctor(transport: transport).diagnose(profile, resolver: resolver)
      try? await transport.shutdown()
      let text = report.render()
      #expect(text.hasPrefix("Tenant 'op' (kind oidc), issuer \(base)/o\n"), "\(text)")
      #expect(!text.contains("\(base)/o/\n"), "\(text)")
      #expect(text.contains("issuer \(base)/o is the configured one"))
    }
  }
}
