import AuthFlowCore
import AuthFlowHTTP
import AuthFlowMockHosting
import AuthFlowScenario
import Foundation
import Synchronization
import Testing

@testable import AuthFlowRuntime

/// The Credentials Manager rules (docs/protocol.md §3.3 and §3.4) and the mock-control actions, against the
/// embedded mock (one per test, so clock moves do not leak into other tests).
@Suite("Credentials Manager and mock control against the embedded mock")
struct CredentialsManagerTests {
  static let login = """
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid profile offline_access
      - id: store
        credentials_store: { credentials: "${{ steps.login }}" }
    """

  @Test("get renews below min_ttl and stores the rotated refresh token")
  func minTTLRenews() async throws {
    let report = try await MockHarness.run(
      """
      scenario: min_ttl
      client: native
      steps:
      \(Self.login)
        - id: fresh
          credentials_get: { min_ttl: 1h }
          expect: { renewed: false }
        - mock_clock: 1h
        - id: aged
          credentials_get: { min_ttl: 86000s }
          expect:
            renewed: true
            refresh_token: { not_equals: "${{ steps.login.refresh_token }}" }
        - assert:
            that: ${{ credentials.refresh_token == steps.aged.refresh_token }}
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("An expired access token (mock clock past its lifetime) is renewed by get")
  func expiredRenews() async throws {
    let report = try await MockHarness.run(
      """
      scenario: expiry
      client: native
      steps:
      \(Self.login)
        - mock_clock: 25h
        - id: check
          credentials_check: {}
          expect: { expired: true, has_valid: true, can_renew: true }
        - id: get
          credentials_get: {}
          expect: { renewed: true, expires_at: { gt: "${{ now() + 86000 }}" } }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("Without a refresh token in the response the stored one is kept")
  func keepsOldRefreshToken() {
    var store = CredentialsStore()
    store.store(["access_token": .secret("a1"), "refresh_token": .secret("r1"), "expires_at": 10])
    store.store(["access_token": .secret("a2"), "expires_at": 20])
    #expect(store.main?["refresh_token"] == .secret("r1"))
    #expect(store.main?["access_token"] == .secret("a2"))
    store.store(["access_token": .secret("a3"), "refresh_token": .secret("r2")])
    #expect(store.main?["refresh_token"] == .secret("r2"))
  }

  @Test("API credentials are stored per audience and replace the main refresh and ID tokens")
  func apiCredentialsStorage() {
    var store = CredentialsStore()
    store.store(["access_token": .secret("a1"), "refresh_token": .secret("r1"), "id_token": .secret("i1")])
    store.storeAPI(
      ["access_token": .secret("api"), "refresh_token": .secret("r2"), "scope": "openid read"], audience: "https://x")
    #expect(store.api["https://x"]?["access_token"] == .secret("api"))
    #expect(store.api["https://x"]?["refresh_token"] == nil)
    #expect(store.main?["refresh_token"] == .secret("r2"))
    #expect(store.main?["id_token"] == .secret("i1"))
    #expect(store.main?["access_token"] == .secret("a1"))
  }

  @Test("has_valid: unexpired past min_ttl, or renewable")
  func hasValidRule() {
    var store = CredentialsStore()
    #expect(!CredentialsManager.hasValid(store, minTTL: 0, now: 100))
    store.store(["access_token": .secret("a"), "expires_at": 200])
    #expect(CredentialsManager.hasValid(store, minTTL: 50, now: 100))
    #expect(!CredentialsManager.hasValid(store, minTTL: 150, now: 100))
    store.store(["access_token": .secret("a"), "expires_at": 200, "refresh_token": .secret("r")])
    #expect(CredentialsManager.hasValid(store, minTTL: 150, now: 100))
  }

  @Test("clear revokes the refresh token: the mock then rejects it")
  func clearRevokes() async throws {
    let report = try await MockHarness.run(
      """
      scenario: clear
      client: native
      steps:
      \(Self.login)
        - id: clear
          credentials_clear: {}
          expect: { revoked: true }
        - id: renew
          renew: { refresh_token: "${{ steps.login.refresh_token }}" }
          expect: { error.code: invalid_grant, error.description: Unknown or invalid refresh token. }
        - id: nothing
          credentials_get: {}
          expect: { error.code: no_credentials }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    // Without revocation the same token still renews: the check above is the revocation's.
    let control = try await MockHarness.run(
      """
      scenario: clear without revoke
      client: native
      steps:
      \(Self.login)
        - credentials_clear: { revoke: false }
        - id: renew
          renew: { refresh_token: "${{ steps.login.refresh_token }}" }
          expect: { access_token: { exists: true } }
      """)
    #expect(control.status == .passed, "\(control.problemSummary)")
  }

  @Test("A passwordless code expires on the mock's clock")
  func codeExpiry() async throws {
    let report = try await MockHarness.run(
      """
      scenario: expiry
      client: native
      vars:
        email: ${{ random_email() }}
      steps:
        - passwordless_start: { email: "${{ vars.email }}" }
        - id: mail
          outbox: { to: "${{ vars.email }}" }
        - mock_clock: 301s
        - id: expired
          passwordless_login: { email: "${{ vars.email }}", otp: "${{ steps.mail.code }}" }
          expect:
            error.code: invalid_grant
            error.description: Wrong email or verification code.
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
  }

  @Test("MFA with a TOTP code computed by totp()")
  func mfaWithTOTPFunction() async throws {
    let report = try await MockHarness.run(
      """
      scenario: mfa
      client: native
      steps:
        - id: login
          login: { username: "${{ tenant.users.bob.email }}", password: "${{ tenant.users.bob.password }}" }
          expect: { error.code: mfa_required }
        - id: verify
          mfa_verify:
            mfa_token: ${{ steps.login.error.body.mfa_token }}
            otp: ${{ totp(tenant.users.bob.totp_secret) }}
          expect: { id_token.claims.email: bob@example.com }
      """)
    #expect(report.status == .passed, "\(report.problemSummary)")
    let otp = try #require(report.steps.first { $0.id == "verify" }?.result?.member("access_token"))
    #expect(otp.isSecret)
  }
}

/// `--trace` over an authentication flow: every exchange is logged, secrets masked.
@Suite("Tracing the Authentication API")
struct AuthenticationTracingTests {
  @Test("Every exchange of the logging scenario is traced with secrets redacted")
  func tracedAndRedacted() async throws {
    let path = GeneratedFilesTests.root.appendingPathComponent("scenarios/authentication/logging.yaml").path
    let yaml = try String(contentsOfFile: path, encoding: .utf8)
    let scenario = try ScenarioHarness.parse(yaml, file: "logging.yaml")
    #expect(scenario.tags.map(\.value).contains("logging"))
    let secrets = SecretRegistry()
    let resolver = TenantResolver(embedded: MockTenantHost(), environment: [:], secrets: secrets, projectDirectory: ".")
    let tenant = try await resolver.resolve(try requireValue(ProjectConfig.embedded.tenants.first))
    let lines = Mutex<[String]>([])
    let formatter = ExchangeFormatter()
    let live = LiveTransport()
    let transport = TracingTransport(wrapping: live) { exchange in
      let text = secrets.scrub(formatter.format(exchange))
      lines.withLock { $0.append(text) }
    }
    let services = RunServices(secrets: secrets, transport: transport)
    let runner = Runner(tenant: tenant.context, services: services, functions: Pipeline.functions, jobs: 1)
    let report = await runner.run(scenario.instances)
    await tenant.stop()
    try? await live.shutdown()
    let scenarioReport = try #require(report.scenarios.first)
    #expect(scenarioReport.status == .passed, "\(scenarioReport.problemSummary)")
    let trace = lines.withLock { $0 }
    #expect(trace.count == 4)
    #expect(trace.filter { $0.contains("POST") && $0.contains("/oauth/token") }.count == 2)
    #expect(trace.contains { $0.contains("GET") && $0.contains("/userinfo") })
    #expect(trace.contains { $0.contains("POST") && $0.contains("/oauth/revoke") })
    let all = trace.joined(separator: "\n")
    let results = scenarioReport.steps.compactMap(\.result)
    var secretTexts = ["Alice-Passw0rd!"]
    for result in results {
      for key in ["access_token", "refresh_token", "id_token"] {
        if let text = result.member(key)?.stringValue { secretTexts.append(text) }
      }
    }
    #expect(secretTexts.count > 4)
    for secret in secretTexts { #expect(!all.contains(secret), "a secret leaked into the trace") }
    #expect(all.contains("***"))
  }
}
