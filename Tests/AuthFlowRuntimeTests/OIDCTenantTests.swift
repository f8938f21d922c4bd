import AuthFlowCore
import AuthFlowHTTP
import AuthFlowRuntime
import Foundation
import Testing

/// `kind: oidc` against the real mock, reached only through its discovery document: endpoints
/// from discovery, form-encoded token and revocation requests, client authentication, RP-initiated
/// logout, capabilities with evidence, and skips that say where a capability was looked for.
@Suite("oidc tenants driven by discovery (the mock as an OpenID Provider)")
struct OIDCTenantTests {
  static let loginRenewRevoke = """
    scenario: code flow, userinfo, renew, revoke over discovered endpoints
    requires: [authorization_code, pkce, refresh_token, userinfo, revocation]
    client: native
    steps:
      - id: login
        web_auth:
          scope: openid profile email offline_access
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect:
          id_token_valid: true
          id_token.claims.iss: ${{ tenant.issuer }}
          refresh_token: { exists: true }
      - id: me
        userinfo: { access_token: "${{ steps.login.access_token }}" }
        expect: { email: alice@example.com }
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          refresh_token: { not_equals: "${{ steps.login.refresh_token }}" }
      - id: revoke
        revoke: { refresh_token: "${{ steps.renew.refresh_token }}" }
        expect: { revoked: true }
      - id: revoked
        renew: { refresh_token: "${{ steps.renew.refresh_token }}" }
        expect: { error.code: invalid_grant }
    """

  @Test("web_auth, userinfo, renew and revoke run on an oidc tenant, with form bodies")
  func codeFlowWithFormBodies() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let report = try await harness.run([Self.loginRenewRevoke], on: tenant)
    await harness.stop()
    let scenario = try #require(report.scenarios.first)
    #expect(scenario.status == .passed, "\(scenario.problemSummary)\(scenario.skipReason ?? "")")
    #expect(tenant.kind == .oidc)
    #expect(tenant.issuer == harness.issuer)
    #expect(tenant.endpoints.layout == .discovered)
    let tokenRequests = harness.recorder.requests(to: "oauth/token")
    #expect(tokenRequests.count == 3)
    for request in tokenRequests + harness.recorder.requests(to: "oauth/revoke") {
      #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
      #expect(request.bodyText.hasPrefix("{") == false)
      #expect(request.bodyText.contains("client_id=native-client-id"))
    }
    #expect(harness.recorder.requests(to: "oauth/revoke").count == 1)
    let discovery = harness.recorder.requests(to: ".well-known/openid-configuration")
    #expect(discovery.count == 1, "discovery is read once, at resolution")
  }

  @Test("a confidential client with client_secret_basic sends its secret in the Authorization header only")
  func clientSecretBasic() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let scenario = """
      scenario: confidential code flow
      client: web
      steps:
        - id: login
          web_auth:
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
          expect: { id_token_valid: true }
      """
    let report = try await harness.run([scenario], on: tenant)
    await harness.stop()
    let result = try #require(report.scenarios.first)
    #expect(result.status == .passed, "\(result.problemSummary)")
    let request = try #require(harness.recorder.requests(to: "oauth/token").first)
    let expected = Data("web-client-id:web-client-secret".utf8).base64EncodedString()
    #expect(request.headers["Authorization"] == "Basic \(expected)")
    #expect(!request.bodyText.contains("client_secret"))
    #expect(!request.bodyText.contains("client_id="))
    #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
  }

  @Test("client_secret_post puts the secret in the form body; a wrong secret is rejected")
  func clientSecretPost() async throws {
    let harness = try await OIDCHarness.start()
    let yaml = OIDCHarness.profileYAML(issuer: harness.issuer, webAuthMethod: "client_secret_post")
    let tenant = try await harness.resolve(yaml).context
    var wrong = tenant
    wrong.clients["web"] = .object([
      "client_id": "web-client-id", "client_secret": .secret("not-the-secret"),
      "redirect_uri": "https://web.example.com/callback",
    ])
    let scenario = """
      scenario: confidential code flow
      client: web
      steps:
        - id: login
          web_auth:
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
      """
    let passed = try await harness.run([scenario], on: tenant)
    let rejected = try await harness.run([scenario], on: wrong)
    await harness.stop()
    #expect(passed.scenarios.first?.status == .passed, "\(passed.scenarios.first?.problemSummary ?? "")")
    #expect(rejected.scenarios.first?.status == .failed)
    let requests = harness.recorder.requests(to: "oauth/token")
    #expect(requests.first?.bodyText.contains("client_secret=web-client-secret") == true)
    #expect(requests.first?.headers["Authorization"] == nil)
  }

  @Test("logout on an oidc tenant goes to the end_session_endpoint and ends the session")
  func endSessionLogout() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let scenario = """
      scenario: RP-initiated logout
      requires: [logout]
      client: native
      steps:
        - id: login
          web_auth:
            browser: phone
            login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        - id: logout
          logout: { browser: phone, id_token_hint: "${{ steps.login.id_token }}" }
          expect:
            url: https://app.example.com/callback
            logout_url: { contains: "/oidc/logout?client_id=native-client-id&post_logout_redirect_uri=" }
        - id: silent
          web_auth:
            browser: phone
            parameters: { prompt: none }
          expect: { error.code: login_required }
      """
    let report = try await harness.run([scenario], on: tenant)
    await harness.stop()
    let result = try #require(report.scenarios.first)
    #expect(result.status == .passed, "\(result.problemSummary)")
    #expect(harness.recorder.requests(to: "v2/logout").isEmpty)
  }

  @Test("capabilities come from discovery with evidence; Auth0-only ones are absent")
  func discoveredCapabilities() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    await harness.stop()
    #expect(tenant.capabilityEvidence["pkce"] == "discovery: code_challenge_methods_supported contains S256")
    #expect(tenant.capabilityEvidence["refresh_token"] == "discovery: grant_types_supported contains refresh_token")
    #expect(
      tenant.capabilityEvidence["revocation"] == "discovery: revocation_endpoint is \(harness.issuer)oauth/revoke")
    #expect(tenant.capabilityEvidence["refresh_token_rotation"] == "declared in authflow.yaml")
    for auth0Only in ["passwordless", "signup", "mfa", "mock_control", "password_realm"] {
      #expect(!tenant.capabilities.contains(auth0Only), "\(auth0Only)")
    }
  }

  @Test("a scenario needing an Auth0-only capability is skipped, saying where it was looked for")
  func skipReasonNamesWhereLooked() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let scenario = """
      scenario: passwordless
      requires: [passwordless]
      client: native
      steps:
        - passwordless_start: { email: alice@example.com }
      """
    let report = try await harness.run([scenario], on: tenant)
    await harness.stop()
    let result = try #require(report.scenarios.first)
    #expect(result.status == .skipped)
    let discoveryURL = "\(harness.issuer).well-known/openid-configuration"
    #expect(
      result.skipReason
        == "tenant 'op' lacks capability 'passwordless' (looked for in: discovery \(discoveryURL) (no discovery member shows it); `capabilities` of tenant 'op' in authflow.yaml)"
    )
  }

  @Test("an Auth0-only action on an oidc tenant is a flow error naming the capability")
  func auth0OnlyPathIsAFlowError() async throws {
    let harness = try await OIDCHarness.start()
    let tenant = try await harness.resolve(OIDCHarness.profileYAML(issuer: harness.issuer)).context
    let scenario = """
      scenario: signup without requires
      client: native
      steps:
        - id: signup
          signup: { email: new@example.com, password: "Str0ng-Passw0rd!", connection: Username-Password-Authentication }
      """
    let report = try await harness.run([scenario], on: tenant)
    await harness.stop()
    let message = try #require(report.scenarios.first?.steps.first?.problems.first?.message)
    #expect(message.contains("has no endpoint for `dbconnections/signup`"))
    #expect(message.contains("capability 'signup'"))
    #expect(harness.recorder.requests(to: "dbconnections/signup").isEmpty)
  }

  @Test("an issuer that differs from the discovered one stops resolution with the fix")
  func issuerMismatch() async throws {
    let harness = try await OIDCHarness.start()
    var withoutSlash = harness.issuer
    withoutSlash.removeLast()
    let outcome: TenantResolutionError?
    do {
      _ = try await harness.resolve(OIDCHarness.profileYAML(issuer: withoutSlash))
      outcome = nil
    } catch {
      outcome = error
    }
    let lenient = try? await harness.resolve(OIDCHarness.profileYAML(issuer: withoutSlash), verifiesIssuer: false)
    await harness.stop()
    let error = try #require(outcome)
    #expect(!error.isEnvironment)
    #expect(error.message.contains("set `issuer: \(harness.issuer)`"))
    #expect(lenient?.context.issuer == harness.issuer, "the ID-token issuer is the discovered one")
  }

  @Test("an unreachable issuer is an environment failure")
  func unreachableIssuer() async throws {
    let harness = try await OIDCHarness.start()
    let outcome: TenantResolutionError?
    do {
      _ = try await harness.resolve(OIDCHarness.profileYAML(issuer: "http://127.0.0.1:1/o"))
      outcome = nil
    } catch {
      outcome = error
    }
    await harness.stop()
    let error = try #require(outcome)
    #expect(error.isEnvironment)
    #expect(error.message.contains("http://127.0.0.1:1/o/.well-known/openid-configuration"))
  }
}
