import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Organization login: membership, the clients' `organization_usage`, and the organization prompt.
@Suite struct OrganizationTests {
  static let b2bCallback = "https://b2b.example.com/callback"

  /// The ID token claims of a code exchange.
  static func idClaims(_ response: TestResponse) throws -> [String: Value] {
    let token = try #require(response.json["id_token"]?.stringValue)
    return try CompactJWS(parsing: token).claims
  }

  @Test func membersGetOrgClaimsAndNonMembersAreRefusedOnTheCallback() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("organization", "org_acme123")]
      let member = items(
        of: try await browser.login(parameters, email: "alice@example.com", password: "Alice-Passw0rd!"))
      let exchanged = try await client.exchange(code: try #require(member["code"]), verifier: parameters.verifier)
      let claims = try Self.idClaims(exchanged)
      #expect(claims["org_id"] == .string("org_acme123"))
      #expect(claims["org_name"] == .string("acme"))

      var stranger = Browser(client)
      parameters.extra = [("organization", "globex")]
      let refused = items(
        of: try await stranger.login(parameters, email: "alice@example.com", password: "Alice-Passw0rd!"))
      #expect(refused["code"] == nil)
      #expect(refused["error"] == "access_denied")
      #expect(refused["error_description"] == "user is not a member of the organization globex")
      #expect(refused["state"] == "state-123")
      // The SSO session of a non-member does not get around the rule either.
      let again = try await stranger.get(parameters.uri)
      #expect(items(of: try #require(again.location))["error"] == "access_denied")
    }
  }

  @Test func organizationUsageDenyAndRequireWithoutPromptAreRefused() async throws {
    let tenant = try MockHarness.tenant { fixture in
      fixture.clients["b2b"]?.organizationRequireBehavior = .noPrompt
    }
    try await MockHarness.test(tenant) { client in
      var legacy = AuthorizeParameters()
      legacy.clientID = "legacy-client-id"
      legacy.redirectURI = "https://legacy.example.com/mobile"
      legacy.extra = [("organization", "org_acme123")]
      let denied = items(of: try #require(try await client.execute(uri: legacy.uri, method: .get).location))
      #expect(denied["error"] == "invalid_request")
      #expect(denied["error_description"] == "parameter organization is not allowed for this client")

      var b2b = AuthorizeParameters()
      b2b.clientID = "b2b-client-id"
      b2b.redirectURI = Self.b2bCallback
      let required = items(of: try #require(try await client.execute(uri: b2b.uri, method: .get).location))
      #expect(required["error"] == "invalid_request")
      #expect(required["error_description"] == "parameter organization is required for this client")
      b2b.extra = [("organization", "acme")]
      let named = try #require(try await client.execute(uri: b2b.uri, method: .get).location)
      #expect(named.hasPrefix("/u/login?state="))
    }
  }

  @Test func thePromptAsksForTheOrganizationBeforeTheLoginPage() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.clientID = "b2b-client-id"
      parameters.redirectURI = Self.b2bCallback
      let authorize = try await browser.get(parameters.uri)
      let promptURL = try #require(authorize.location)
      #expect(promptURL.hasPrefix("/u/organization?state="))
      let page = try await browser.get(promptURL)
      #expect(page.status == .ok)
      #expect(page.text.contains("id=\"organization-form\""))
      #expect(page.text.contains("name=\"organization_name\""))
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))

      let forged = try await browser.postForm(
        promptURL, [("state", state), ("_csrf", "forged"), ("organization_name", "acme")])
      #expect(forged.status == .forbidden)
      let unknown = try await browser.postForm(
        promptURL, [("state", state), ("_csrf", csrf), ("organization_name", "initech")])
      #expect(unknown.status == .badRequest)
      #expect(unknown.text.contains(HTML.escape(LoginMessages.unknownOrganization)))
      let empty = try await browser.postForm(promptURL, [("state", state), ("_csrf", csrf)])
      #expect(empty.status == .badRequest)

      let chosen = try await browser.postForm(
        promptURL, [("state", state), ("_csrf", csrf), ("organization_name", "ACME")])
      #expect(chosen.status == .found)
      let loginURL = try #require(chosen.location)
      #expect(loginURL == "/u/login?state=\(state)")
      let login = try await browser.get(loginURL)
      let submitted = try await browser.postForm(
        loginURL,
        [
          ("state", state), ("_csrf", try #require(hiddenField("_csrf", in: login.text))),
          ("username", "alice@example.com"), ("password", "Alice-Passw0rd!"),
        ])
      let callback = items(of: try #require(submitted.location))
      let code = try #require(callback["code"])
      let exchanged = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("b2b-client-id"), "code": .string(code),
          "code_verifier": .string(parameters.verifier), "redirect_uri": .string(Self.b2bCallback),
        ])
      #expect(try Self.idClaims(exchanged)["org_id"] == .string("org_acme123"))

      // With the SSO session, the prompt is the only page.
      let second = try await browser.get(parameters.uri)
      let secondPrompt = try await browser.get(try #require(second.location))
      let answered = try await browser.postForm(
        try #require(second.location),
        [
          ("state", try #require(hiddenField("state", in: secondPrompt.text))),
          ("_csrf", try #require(hiddenField("_csrf", in: secondPrompt.text))), ("organization_name", "org_acme123"),
        ])
      #expect(items(of: try #require(answered.location))["code"] != nil)
    }
  }

  @Test func promptNoneOnARequiringClientIsLoginRequired() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.clientID = "b2b-client-id"
      parameters.redirectURI = Self.b2bCallback
      parameters.extra = [("prompt", "none")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(items(of: try #require(response.location))["error"] == "login_required")
    }
  }
}
