import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `organization_require_behavior: post_login_prompt` and the organizations' enabled connections.
@Suite struct OrganizationPostLoginTests {
  static func tenant(_ change: (inout TenantFixture) -> Void = { _ in }) throws -> MockTenant {
    try MockHarness.tenant { fixture in
      fixture.clients["b2b"]?.organizationRequireBehavior = .postLoginPrompt
      change(&fixture)
    }
  }

  static var b2b: AuthorizeParameters {
    var parameters = AuthorizeParameters()
    parameters.clientID = "b2b-client-id"
    parameters.redirectURI = OrganizationTests.b2bCallback
    return parameters
  }

  /// Logs in on the b2b client; the URL the login form sent the browser to.
  static func logIn(_ browser: inout Browser, email: String, password: String) async throws -> String {
    try await browser.login(Self.b2b, email: email, password: password)
  }

  static func exchange(_ client: any TestClientProtocol, code: String) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("authorization_code"), "client_id": .string("b2b-client-id"), "code": .string(code),
        "code_verifier": .string(Self.b2b.verifier), "redirect_uri": .string(OrganizationTests.b2bCallback),
      ])
  }

  @Test func theUserPicksOneOfTheirOrganizationsAfterLoggingIn() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      var browser = Browser(client)
      let next = try await Self.logIn(&browser, email: "alice@example.com", password: "Alice-Passw0rd!")
      #expect(next.hasPrefix("/u/organization-selection?state="))
      let page = try await browser.get(next)
      #expect(page.text.contains("data-page=\"organization-selection\""))
      #expect(page.text.contains("data-organization=\"acme\""))
      #expect(!page.text.contains("data-organization=\"globex\""))
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      // Not hers: globex exists but she is no member.
      let foreign = try await browser.postForm(
        next, [("state", state), ("_csrf", csrf), ("organization_name", "globex")])
      #expect(foreign.status == .badRequest)
      #expect(foreign.text.contains("You are not a member of this organization."))
      let forged = try await browser.postForm(
        next, [("state", state), ("_csrf", "forged"), ("organization_name", "acme")])
      #expect(forged.status == .forbidden)
      let picked = try await browser.postForm(
        next, [("state", state), ("_csrf", csrf), ("organization_name", "Acme")])
      let callback = items(of: try #require(picked.location))
      let exchanged = try await Self.exchange(client, code: try #require(callback["code"]))
      #expect(try OrganizationTests.idClaims(exchanged)["org_id"] == .string("org_acme123"))
      // The picker transaction is used up.
      let replay = try await browser.postForm(
        next, [("state", state), ("_csrf", csrf), ("organization_name", "acme")])
      #expect(replay.status == .badRequest)
      // With the SSO session, the picker is the only page.
      let again = try await browser.get(Self.b2b.uri)
      #expect(try #require(again.location).hasPrefix("/u/organization-selection?state="))
    }
  }

  @Test func aUserInNoOrganizationIsRefusedOnTheCallback() async throws {
    try await MockHarness.test(try Self.tenant { $0.organizations[0].members = [] }) { client in
      var browser = Browser(client)
      let refused = items(of: try await Self.logIn(&browser, email: "alice@example.com", password: "Alice-Passw0rd!"))
      #expect(refused["code"] == nil)
      #expect(refused["error"] == "access_denied")
      #expect(refused["error_description"] == "user is not a member of any organization")
      #expect(refused["state"] == "state-123")
    }
  }

  @Test func promptNoneCannotShowThePicker() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      var parameters = Self.b2b
      parameters.extra = [("prompt", "none")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      let callback = items(of: try #require(response.location))
      #expect(callback["error"] == "interaction_required")
      #expect(callback["state"] == "state-123")
    }
  }

  @Test func aLoginThroughAConnectionTheOrganizationDoesNotEnableIsRefused() async throws {
    let tenant = try MockHarness.tenant { $0.organizations[0].connections = ["github"] }
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("organization", "org_acme123")]
      let refused = items(
        of: try await browser.login(parameters, email: "alice@example.com", password: "Alice-Passw0rd!"))
      #expect(refused["code"] == nil)
      #expect(refused["error"] == "invalid_request")
      #expect(refused["error_description"] == "the connection is not enabled for the organization")
      #expect(refused["state"] == "state-123")
      // Naming the connection at /authorize is refused at once, on the callback.
      parameters.extra = [("organization", "org_acme123"), ("connection", "Username-Password-Authentication")]
      let early = try await client.execute(uri: parameters.uri, method: .get)
      let earlyItems = items(of: try #require(early.location))
      #expect(earlyItems["error_description"] == "the connection is not enabled for the organization")
    }
  }

  @Test func theDefaultFixtureEnablesTheDatabaseForAcme() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("organization", "org_acme123"), ("connection", "email")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(items(of: try #require(response.location))["error"] == "invalid_request")
    }
  }
}
