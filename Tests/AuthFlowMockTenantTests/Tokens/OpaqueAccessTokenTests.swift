import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// docs/protocol.md §3.2 "Access-token format": without an audience the access token is opaque, good only at
/// `/userinfo` (one signature per login); with one it is a JWT for the API (two signatures).
@Suite struct OpaqueAccessTokenTests {
  static let api = "https://api.example.com"

  /// A password-realm token response for alice, with `audience` when given.
  static func login(
    _ client: any TestClientProtocol, audience: String? = nil, scope: String = "openid profile email"
  ) async throws -> [String: Value] {
    var body: [String: Value] = [
      "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
      "client_id": .string("native-client-id"), "username": .string("alice@example.com"),
      "password": .string("Alice-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
      "scope": .string(scope),
    ]
    if let audience { body["audience"] = .string(audience) }
    let response = try await client.postJSON("/oauth/token", body)
    #expect(response.status == .ok, "\(response.text)")
    return response.json
  }

  static func userinfo(_ client: any TestClientProtocol, _ token: String) async throws -> TestResponse {
    try await client.execute(uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(token)"])
  }

  static func isBase64URL(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
  }

  @Test func withoutAnAudienceTheAccessTokenIsOpaqueAndOneSignatureIsMade() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let before = tenant.signaturesMade
      let tokens = try await Self.login(client)
      #expect(tenant.signaturesMade - before == 1)
      let access = try #require(tokens["access_token"]?.stringValue)
      #expect(!access.contains("."))
      #expect(access.count >= 43)
      #expect(Self.isBase64URL(access))
      #expect((try? tenant.verificationKeys.verify(access)) == nil)
      #expect(tokens["id_token"]?.stringValue != nil)
      let info = try await Self.userinfo(client, access)
      #expect(info.status == .ok)
      #expect(info.json["sub"] == .string("auth0|alice0001"))
      #expect(info.json["email"] == .string("alice@example.com"))
      #expect(tenant.read { $0.counts["opaque_access_tokens"] } == 1)
    }
  }

  @Test func withAnAudienceTheAccessTokenIsAJWTForTheAPIAndUserinfo() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let before = tenant.signaturesMade
      let tokens = try await Self.login(client, audience: Self.api, scope: "openid email read:messages")
      #expect(tenant.signaturesMade - before == 2)
      let access = try #require(tokens["access_token"]?.stringValue)
      let jws = try tenant.verificationKeys.verify(access)
      #expect(jws.header["typ"] == .string("at+jwt"))
      #expect(jws.claims["aud"] == .array([.string(Self.api), .string("http://mock.test/userinfo")]))
      #expect(jws.claims["scope"] == .string("openid email read:messages"))
      #expect(tenant.read { $0.counts["opaque_access_tokens"] } == 0)
      let info = try await Self.userinfo(client, access)
      #expect(info.status == .ok)
      #expect(info.json["sub"] == .string("auth0|alice0001"))
    }
  }

  @Test func refreshWithoutAnAudienceIssuesAnOpaqueTokenToo() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let tokens = try await Self.login(client, scope: "openid profile offline_access")
      let refresh = try #require(tokens["refresh_token"])
      let renewed = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"), "refresh_token": refresh,
        ])
      #expect(renewed.status == .ok)
      let access = try #require(renewed.json["access_token"]?.stringValue)
      #expect(!access.contains("."))
      #expect(try await Self.userinfo(client, access).status == .ok)
    }
  }

  @Test func userinfoRefusesStringsItDidNotIssue() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let issued = try #require(try await Self.login(client)["access_token"]?.stringValue)
      #expect(try await Self.userinfo(client, issued).status == .ok)
      // Random strings of the issued shape, a changed issued token, and its prefix are refused.
      var guesses = (0..<20).map { _ in RandomToken.make(bytes: 32) }
      var flipped = Array(issued)
      flipped[0] = flipped[0] == "A" ? "B" : "A"
      guesses += [String(flipped), String(issued.dropLast()), issued + "A", "", "null"]
      for guess in guesses {
        let response = try await Self.userinfo(client, guess)
        #expect(response.status == .unauthorized, "\(guess) was accepted")
        #expect(response.text == "Unauthorized")
      }
    }
  }

  @Test func anExpiredOpaqueTokenIsRefused() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let access = try #require(try await Self.login(client)["access_token"]?.stringValue)
      tenant.clock.advance(by: Double(tenant.fixture.settings.accessTokenLifetime) - 10)
      #expect(try await Self.userinfo(client, access).status == .ok)
      tenant.clock.advance(by: 11)
      let expired = try await Self.userinfo(client, access)
      #expect(expired.status == .unauthorized)
      #expect(expired.text == "Unauthorized")
    }
  }

  @Test func resetForgetsOpaqueTokens() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let access = try #require(try await Self.login(client)["access_token"]?.stringValue)
      await tenant.reset()
      #expect(tenant.read { $0.counts["opaque_access_tokens"] } == 0)
      #expect(try await Self.userinfo(client, access).status == .unauthorized)
    }
  }

  @Test func opaqueTokensAreBoundedLikeTheOtherPerLoginState() async throws {
    var limits = MockStateLimits()
    limits.maxEntriesPerStore = 8
    let tenant = try MockTenant(
      fixture: MockHarness.fixture, baseURL: MockHarness.baseURL, signingKey: MockHarness.key, limits: limits)
    let issuer = TokenIssuer(tenant: tenant)
    let alice = try #require(tenant.read { $0.users.user(id: "auth0|alice0001") })
    let grant = Grant(
      clientID: "native-client-id", userID: alice.userID, scope: ["openid"], audience: nil, nonce: nil,
      organization: nil, authTime: nil, includeAuthTime: false)
    for _ in 0..<50 { _ = issuer.opaqueAccessToken(for: grant, user: alice) }
    #expect((tenant.read { $0.counts["opaque_access_tokens"] } ?? 0) <= 8)
  }

  @Test func theManagementAPIAndMyAccountRefuseAnOpaqueToken() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let access = try #require(try await Self.login(client)["access_token"]?.stringValue)
      let management = try await client.execute(
        uri: "/api/v2/users/auth0%7Calice0001", method: .get, headers: [.authorization: "Bearer \(access)"])
      #expect(management.status == .unauthorized)
      let myAccount = try await client.execute(
        uri: "/me/v1/authentication-methods", method: .get, headers: [.authorization: "Bearer \(access)"])
      #expect(myAccount.status == .unauthorized)
      let factors = try await client.execute(
        uri: "/me/v1/factors", method: .get, headers: [.authorization: "Bearer \(access)"])
      #expect(factors.status == .unauthorized)
    }
  }
}
