import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/authorize?connection=github`: the simulated provider's consent page, its callback, and the
/// `github|…` user.
@Suite struct SocialLoginTests {
  /// Authorize with `connection=github`, follow to the consent page; returns its state.
  static func consent(
    _ browser: inout Browser, _ parameters: AuthorizeParameters
  ) async throws -> (page: TestResponse, url: String, state: String) {
    let authorize = try await browser.get(parameters.uri)
    let url = try #require(authorize.location)
    #expect(url.hasPrefix("/social/github/login/oauth/authorize?"))
    let query = items(of: url)
    #expect(query["client_id"] == "authflow-mock-github")
    #expect(query["redirect_uri"] == "http://mock.test/login/callback")
    let page = try await browser.get(url)
    #expect(page.status == .ok)
    #expect(page.text.contains("id=\"github-consent\""))
    return (page, url, try #require(hiddenField("state", in: page.text)))
  }

  /// Follows the provider's redirect to the tenant's callback; returns the app callback URL.
  static func decide(
    _ browser: inout Browser, state: String, account: String, decision: String
  ) async throws -> String {
    let decided = try await browser.postForm(
      "/social/github/login/oauth/authorize", [("state", state), ("account", account), ("authorize", decision)])
    #expect(decided.status == .found)
    let providerCallback = try #require(decided.location)
    #expect(providerCallback.hasPrefix("http://mock.test/login/callback?"))
    let callback = try await browser.get(String(providerCallback.dropFirst("http://mock.test".count)))
    #expect(callback.status == .found)
    return try #require(callback.location)
  }

  @Test func codeFlowCreatesTheGitHubUserAndAnSSOSession() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("connection", "github"), ("connection_scope", "read:user,user:email")]
      let (page, _, state) = try await Self.consent(&browser, parameters)
      #expect(page.text.contains("<li>read:user</li><li>user:email</li>"))
      #expect(page.text.contains("<option value=\"583231\" selected>octocat (The Octocat)</option>"))
      let callback = try await Self.decide(&browser, state: state, account: "583231", decision: "accept")
      #expect(callback.hasPrefix(MockHarness.nativeCallback))
      let code = try #require(items(of: callback)["code"])
      let token = try await client.exchange(code: code, verifier: parameters.verifier)
      #expect(token.status == .ok, "\(token.text)")
      let claims = try #require(JWTValue(raw: token.json["id_token"]?.stringValue ?? "")?.claims)
      #expect(claims["sub"] == .string("github|583231"))
      #expect(claims["email"] == .string("octocat@example.com"))
      #expect(claims["email_verified"] == .bool(true))
      #expect(claims["nickname"] == .string("octocat"))
      // The provider's state and code were single use.
      let replay = try await browser.get("/login/callback?state=\(escape(state))&code=x")
      #expect(replay.status == .badRequest)
    }
  }

  @Test func loginHintPicksTheAccountAndDenialIsAccessDenied() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("connection", "github"), ("login_hint", "hubot@example.com")]
      let (page, _, state) = try await Self.consent(&browser, parameters)
      #expect(page.text.contains("<option value=\"7340\" selected>"))
      let callback = try await Self.decide(&browser, state: state, account: "7340", decision: "deny")
      let result = items(of: callback)
      #expect(result["error"] == "access_denied")
      #expect(result["error_description"] == "The user has denied your application access.")
      #expect(result["state"] == parameters.state)
    }
  }

  @Test func theProviderCodeMustMatchItsState() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var first = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("connection", "github")]
      let (_, _, stateA) = try await Self.consent(&first, parameters)
      var second = Browser(client)
      let (_, _, stateB) = try await Self.consent(&second, parameters)
      let decided = try await first.postForm(
        "/social/github/login/oauth/authorize", [("state", stateA), ("account", "583231"), ("authorize", "accept")])
      let decidedLocation = try #require(decided.location)
      let codeA = try #require(items(of: decidedLocation)["code"])
      // A code issued for one login can not finish another.
      let crossed = try await second.get("/login/callback?state=\(escape(stateB))&code=\(escape(codeA))")
      let crossedLocation = try #require(crossed.location)
      #expect(items(of: crossedLocation)["error"] == "access_denied")
      // An unknown account is refused on the provider's page.
      var third = Browser(client)
      let (_, _, stateC) = try await Self.consent(&third, parameters)
      let unknown = try await third.postForm(
        "/social/github/login/oauth/authorize", [("state", stateC), ("account", "1"), ("authorize", "accept")])
      #expect(unknown.status == .badRequest)
      // The provider's page needs the tenant's provider client and callback.
      let forged = try await third.get(
        "/social/github/login/oauth/authorize?client_id=other&redirect_uri=http%3A%2F%2Fevil.example%2F&state=\(escape(stateC))"
      )
      #expect(forged.status == .badRequest)
    }
  }

  @Test func implicitGrantThroughGitHubAndALinkedIdentityLogsInAsThePrimary() async throws {
    let tenant = try MockHarness.tenant()
    tenant.transact {
      $0.identityLinks.link(
        .object(["provider": .string("github"), "user_id": .string("7340"), "connection": .string("github")]),
        to: "auth0|alice0001")
    }
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.clientID = "legacy-client-id"
      parameters.redirectURI = "https://legacy.example.com/mobile"
      let uri =
        "/authorize?client_id=legacy-client-id&response_type=token&redirect_uri=\(escape(parameters.redirectURI))&state=s1&connection=github&login_hint=hubot&audience=https%3A%2F%2Fapi.example.com"
      let authorize = try await browser.get(uri)
      let consentURL = try #require(authorize.location)
      let page = try await browser.get(consentURL)
      let state = try #require(hiddenField("state", in: page.text))
      let callback = try await Self.decide(&browser, state: state, account: "7340", decision: "accept")
      #expect(callback.hasPrefix("https://legacy.example.com/mobile#"))
      let fragment = items(of: callback)
      #expect(fragment["state"] == "s1")
      let access = try #require(JWTValue(raw: fragment["access_token"] ?? ""))
      #expect(access.claims["sub"] == .string("auth0|alice0001"))
    }
  }
}
