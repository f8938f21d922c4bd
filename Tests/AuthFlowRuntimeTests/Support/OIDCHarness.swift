import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowMockTenant
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Synchronization

/// The embedded mock started as a `mock` tenant, then resolved a second time as a `kind: oidc`
/// tenant through its own discovery document: the mock is a standard OpenID Provider too.
struct OIDCHarness {
  let mock: ResolvedTenant
  let secrets: SecretRegistry
  let transport: LiveTransport
  let recorder: RecordingTransport

  /// The mock's base URL (its issuer, trailing slash included).
  var issuer: String { mock.context.baseURL }

  /// Starts the mock; `settings` are lines added under the built-in fixture's `tenant:`
  /// (`id_token_signing_alg: ES256`), for a mock that plays another provider. It writes
  /// `updated_at` as OIDC Core §5.1 fixes it (a number), not as Auth0 does: as an OpenID Provider
  /// it follows the standard.
  static func start(
    secrets: SecretRegistry = SecretRegistry(), settings: [String] = ["updated_at_format: epoch"]
  ) async throws -> OIDCHarness {
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    var profile = try requireValue(ProjectConfig.embedded.tenants.first)
    if !settings.isEmpty {
      let builtIn = try requireValue(BuiltInFixture.text)
      let fixture = builtIn.replacingOccurrences(
        of: "\ntenant:\n", with: "\ntenant:\n" + settings.map { "  \($0)\n" }.joined())
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-fixture-\(UUID()).yaml").path
      try fixture.write(toFile: path, atomically: true, encoding: .utf8)
      let (config, _) = ProjectConfigParser().parse(
        "tenants:\n  mock: { kind: mock, fixture: \(path) }\n", file: "authflow.yaml")
      profile = try requireValue(config?.tenant(named: "mock"))
    }
    let mock: ResolvedTenant
    do {
      mock = try await resolver.resolve(profile)
    } catch {
      throw MockHarness.Failed(description: error.message)
    }
    let transport = LiveTransport()
    return OIDCHarness(mock: mock, secrets: secrets, transport: transport, recorder: RecordingTransport(transport))
  }

  func stop() async {
    await mock.stop()
    try? await transport.shutdown()
  }

  /// `authflow.yaml` with one `oidc` tenant `op` at `issuer`: the mock's clients and alice.
  static func profileYAML(issuer: String, webAuthMethod: String = "client_secret_basic") -> String {
    """
    tenants:
      op:
        kind: oidc
        issuer: \(issuer)
        clients:
          native: { client_id: native-client-id, redirect_uri: "https://app.example.com/callback" }
          web:
            client_id: web-client-id
            client_secret: web-client-secret
            redirect_uri: https://web.example.com/callback
            token_endpoint_auth_method: \(webAuthMethod)
        users:
          alice: { email: alice@example.com, password: "Alice-Passw0rd!" }
        capabilities: [refresh_token_rotation]
    """
  }

  /// Resolves the `op` profile of `yaml` through the recording transport.
  func resolve(_ yaml: String, verifiesIssuer: Bool = true) async throws(TenantResolutionError) -> ResolvedTenant {
    let (config, _) = ProjectConfigParser().parse(yaml, file: "authflow.yaml")
    guard let profile = config?.tenant(named: "op") else {
      throw TenantResolutionError(diagnostics: [], message: "no profile 'op'", isEnvironment: false)
    }
    let resolver = TenantResolver(
      embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".", transport: recorder,
      verifiesIssuer: verifiesIssuer)
    return try await resolver.resolve(profile)
  }

  /// Runs scenarios against `tenant` through the recording transport.
  func run(_ yamls: [String], on tenant: TenantContext) async throws -> RunReport {
    let instances = try yamls.enumerated().flatMap { index, yaml in
      try ScenarioHarness.parse(yaml, file: "scenario\(index).yaml").instances
    }
    let services = RunServices(secrets: secrets, transport: recorder, environment: [:])
    return await Runner(tenant: tenant, services: services, functions: Pipeline.functions, jobs: 2).run(instances)
  }
}

/// Forwards to a transport and keeps every request sent.
final class RecordingTransport: HTTPTransport {
  private let base: any HTTPTransport
  private let sent = Mutex<[HTTPRequest]>([])

  init(_ base: any HTTPTransport) {
    self.base = base
  }

  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    sent.withLock { $0.append(request) }
    return try await base.send(request)
  }

  /// The requests sent to URLs ending with `suffix`.
  func requests(to suffix: String) -> [HTTPRequest] {
    sent.withLock { requests in requests.filter { $0.url.split(separator: "?").first?.hasSuffix(suffix) ?? false } }
  }
}
