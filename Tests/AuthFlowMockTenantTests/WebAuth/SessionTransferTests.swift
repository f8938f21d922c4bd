import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/authorize?session_transfer_token=…`: a valid token opens a session without a login page; it
/// is single use, expires after 60 s, and an invalid one prompts the login page.
@Suite struct SessionTransferTests {
  static func tenant() throws -> MockTenant {
    try MockHarness.tenant { fixture in
      fixture.users["carol"] = UserRecord(
        profile: "carol", userID: "auth0|carol0004", email: "carol@example.com", password: "Carol-Passw0rd!")
    }
  }

  /// A session transfer token for alice, from a password-realm login's refresh token.
  static func transferToken(_ client: any TestClientProtocol) async throws -> String {
    let login = try await ManagementUserTests.token(
      client, scope: "openid offline_access", audience: "https://api.example.com")
    let refreshToken = try #require(login["refresh_token"]?.stringValue)
    let exchanged = try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"),
        "refresh_token": .string(refreshToken), "audience": .string("urn:mock.test:session_transfer"),
      ])
    #expect(exchanged.json["issued_token_type"] == .string("urn:auth0:params:oauth:token-type:session_transfer_token"))
    return try #require(exchanged.json["access_token"]?.stringValue)
  }

  static func parameters(_ token: String) -> AuthorizeParameters {
    var parameters = AuthorizeParameters()
    parameters.extra = [("session_transfer_token", token)]
    return parameters
  }

  @Test func aValidTokenOpensTheSessionWithoutALoginPageOnce() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      let token = try await Self.transferToken(client)
      var browser = Browser(client)
      let parameters = Self.parameters(token)
      let answered = try await browser.get(parameters.uri)
      let callback = items(of: try #require(answered.location))
      let code = try #require(callback["code"], "expected the callback, got \(answered.location ?? "")")
      #expect(browser.cookie?.hasPrefix("auth0=") == true)
      let exchanged = try await client.exchange(code: code, verifier: parameters.verifier)
      #expect(try OrganizationTests.idClaims(exchanged)["sub"] == .string("auth0|alice0001"))
      // The session it opened answers later requests.
      let later = try await browser.get(AuthorizeParameters().uri)
      #expect(items(of: try #require(later.location))["code"] != nil)

      // Single use: another browser presenting it again gets the login page.
      var other = Browser(client)
      let reused = try await other.get(parameters.uri)
      #expect(reused.location?.hasPrefix("/u/login?state=") == true)
      #expect(other.cookie == nil)
    }
  }

  @Test func anExpiredTokenPromptsTheLoginPage() async throws {
    let tenant = try Self.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.transferToken(client)
      tenant.clock.advance(by: 61)
      let response = try await client.execute(uri: Self.parameters(token).uri, method: .get)
      #expect(response.location?.hasPrefix("/u/login?state=") == true)
    }
  }

  @Test func anInvalidTokenPromptsTheLoginPageOverAnExistingSession() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      let withSession = try await browser.get(AuthorizeParameters().uri)
      #expect(items(of: try #require(withSession.location))["code"] != nil)
      let invalid = try await browser.get(Self.parameters("not-a-token").uri)
      #expect(invalid.location?.hasPrefix("/u/login?state=") == true)
    }
  }

  @Test func aTokenOfAnotherUserRevokesTheSessionAndPromptsTheLoginPage() async throws {
    let tenant = try Self.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "carol@example.com", password: "Carol-Passw0rd!")
      let carolSession = try #require(browser.cookie)
      let token = try await Self.transferToken(client)
      let response = try await browser.get(Self.parameters(token).uri)
      #expect(response.location?.hasPrefix("/u/login?state=") == true)
      #expect(browser.cookie == nil)
      let sessionID = String(carolSession.dropFirst("auth0=".count))
      #expect(tenant.read({ $0.sessions.live(sessionID, now: tenant.clock.seconds) }) == nil)
    }
  }

  @Test func promptNoneWithAValidTokenAnswersSilently() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      var parameters = Self.parameters(try await Self.transferToken(client))
      parameters.extra.append(("prompt", "none"))
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(items(of: try #require(response.location))["code"] != nil)
    }
  }
}
