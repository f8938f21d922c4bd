import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on `/oauth/token` and `/oauth/revoke`: refresh tokens are bound to their client,
/// another client's revocation does nothing, client authentication has one identity, blocked
/// users lose their refresh tokens, and token responses are never cached.
@Suite struct TokenProbeTests {
  static func refresh(
    _ client: any TestClientProtocol, _ token: String, clientID: String = "native-client-id",
    secret: String? = nil
  ) async throws -> TestResponse {
    var body: [String: Value] = [
      "grant_type": .string("refresh_token"), "client_id": .string(clientID), "refresh_token": .string(token),
    ]
    if let secret { body["client_secret"] = .string(secret) }
    return try await client.postJSON("/oauth/token", body)
  }

  @Test func aRefreshTokenIsBoundToItsClientAndAnotherClientCannotBurnIt() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      let stolen = try await Self.refresh(client, token, clientID: "web-client-id", secret: "web-client-secret")
      #expect(stolen.status == .forbidden)
      #expect(stolen.json["error_description"] == .string("Unknown or invalid refresh token."))
      // The failed theft neither revoked the family nor counted as a reuse.
      let own = try await Self.refresh(client, token)
      #expect(own.status == .ok)
    }
  }

  @Test func revocationByAnotherClientHasNoEffect() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      let revoke = try await client.postJSON(
        "/oauth/revoke",
        [
          "client_id": .string("web-client-id"), "client_secret": .string("web-client-secret"),
          "token": .string(token),
        ])
      #expect(revoke.status == .ok)
      #expect(try await Self.refresh(client, token).status == .ok)
      // A wrong secret is refused before anything is looked at.
      let wrongSecret = try await client.postJSON(
        "/oauth/revoke",
        ["client_id": .string("web-client-id"), "client_secret": .string("nope"), "token": .string(token)])
      #expect(wrongSecret.status == .unauthorized)
      #expect(wrongSecret.json["error"] == .string("invalid_client"))
    }
  }

  @Test func basicAuthenticationForOneClientAndABodyForAnotherIsRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let basic = "Basic " + Data("web-client-id:web-client-secret".utf8).base64EncodedString()
      let body: [String: Value] = [
        "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
        "audience": .string("https://api.example.com"),
      ]
      let mixed = try await client.postJSON("/oauth/token", body, headers: [.authorization: basic])
      #expect(mixed.status == .unauthorized)
      #expect(mixed.json["access_token"] == nil)
      let wrongBasic = "Basic " + Data("m2m-client-id:nope".utf8).base64EncodedString()
      let wrong = try await client.postJSON("/oauth/token", body, headers: [.authorization: wrongBasic])
      #expect(wrong.status == .unauthorized)
      let right = "Basic " + Data("m2m-client-id:m2m-client-secret".utf8).base64EncodedString()
      #expect(try await client.postJSON("/oauth/token", body, headers: [.authorization: right]).status == .ok)
    }
  }

  @Test func aBlockedUsersRefreshTokenStopsWorking() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      var alice = try #require(await tenant.users.user(id: "auth0|alice0001"))
      alice.blocked = true
      await tenant.users.update(alice)
      let response = try await Self.refresh(client, token)
      #expect(response.status == .unauthorized)
      #expect(response.json["error"] == .string("unauthorized"))
      #expect(response.json["error_description"] == .string("user is blocked"))
    }
  }

  @Test func tokenResponsesAndErrorsAreNeverCached() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var body = AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, SecurityProbe.alice.password)
      let ok = try await client.postJSON("/oauth/token", body)
      body["password"] = .string("wrong")
      let failed = try await client.postJSON("/oauth/token", body)
      for response in [ok, failed] {
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.headers[.init("Pragma")!] == "no-cache")
      }
    }
  }
}
