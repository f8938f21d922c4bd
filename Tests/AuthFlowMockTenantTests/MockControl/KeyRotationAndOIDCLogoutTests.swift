import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/__mock/rotate-keys` (a new key signs; the replaced one stays published until revoked) and
/// `/oidc/logout` (the discovery document's `end_session_endpoint`).
@Suite struct KeyRotationAndOIDCLogoutTests {
  static func kid(of token: Value?) throws -> String? {
    try CompactJWS(parsing: try #require(token?.stringValue)).keyID
  }

  static func userinfo(_ client: any TestClientProtocol, _ token: Value?) async throws -> HTTPResponse.Status {
    let bearer = "Bearer \(try #require(token?.stringValue))"
    return try await client.execute(uri: "/userinfo", method: .get, headers: [.authorization: bearer]).status
  }

  @Test func rotationSignsWithTheNewKeyAndKeepsTheOldOnePublishedUntilRevoked() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      // JWT access tokens (an API audience): their signatures follow the published keys.
      let api = "https://api.example.com"
      let before = try await EndpointTests.passwordLogin(client, audience: api)
      let firstKid = try #require(try Self.kid(of: before["id_token"]))

      let rotated = try await client.postJSON("/__mock/rotate-keys", [:]).json
      let secondKid = try #require(rotated["kid"]?.stringValue)
      #expect(secondKid != firstKid)
      #expect(rotated["published"] == .array([.string(secondKid), .string(firstKid)]))
      let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get).json
      #expect(jwks["keys"]?.arrayValue?.compactMap { $0.objectValue?["kid"]?.stringValue } == [secondKid, firstKid])

      let after = try await EndpointTests.passwordLogin(client, audience: api)
      #expect(try Self.kid(of: after["id_token"]) == secondKid)
      #expect(try await Self.userinfo(client, before["access_token"]) == .ok)
      #expect(try await Self.userinfo(client, after["access_token"]) == .ok)

      // Revoking unpublishes the earlier keys: what they signed no longer verifies.
      let revoked = try await client.postJSON("/__mock/rotate-keys", ["revoke_previous": .bool(true)]).json
      #expect(revoked["published"]?.arrayValue?.count == 1)
      #expect(try await Self.userinfo(client, before["access_token"]) == .unauthorized)
      #expect(try await Self.userinfo(client, after["access_token"]) == .unauthorized)

      // Reset goes back to the key the tenant started with.
      #expect(try await client.postJSON("/__mock/reset", [:]).status == .noContent)
      #expect(try await Self.userinfo(client, before["access_token"]) == .ok)
    }
  }

  @Test func oidcLogoutChecksTheHintAndTheRedirectEchoesStateAndEndsTheSession() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      let hint = try #require(try await EndpointTests.passwordLogin(client)["id_token"]?.stringValue)
      let callback = escape(MockHarness.nativeCallback)

      let evil = try await browser.get(
        "/oidc/logout?id_token_hint=\(hint)&post_logout_redirect_uri=https%3A%2F%2Fevil.example.com")
      #expect(evil.status == .badRequest && evil.location == nil)
      #expect(evil.text.contains("is not defined as a valid URL in &quot;Allowed Logout URLs&quot;"))

      var forged = Array(hint)
      forged[forged.count - 5] = forged[forged.count - 5] == "A" ? "B" : "A"
      let badHint = try await browser.get(
        "/oidc/logout?id_token_hint=\(String(forged))&post_logout_redirect_uri=\(callback)")
      #expect(badHint.status == .badRequest && badHint.location == nil)

      let otherClient = try await browser.get(
        "/oidc/logout?id_token_hint=\(hint)&client_id=web-client-id&post_logout_redirect_uri=\(callback)")
      #expect(otherClient.status == .badRequest)

      // The session is still there after the refused requests, and gone after the good one.
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none")]
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["code"] != nil)
      let out = try await browser.get(
        "/oidc/logout?id_token_hint=\(hint)&post_logout_redirect_uri=\(callback)&state=s%201")
      #expect(out.location == MockHarness.nativeCallback + "?state=s%201")
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["error"] == "login_required")
    }
  }

  /// RFC 9068: JWT access tokens carry a unique `jti`, so two issued in the same virtual second differ.
  @Test func accessTokensCarryAUniqueJTI() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let api = "https://api.example.com"
      let first = try #require(
        try await EndpointTests.passwordLogin(client, audience: api)["access_token"]?.stringValue)
      let second = try #require(
        try await EndpointTests.passwordLogin(client, audience: api)["access_token"]?.stringValue)
      let firstJTI = try CompactJWS(parsing: first).claims["jti"]?.stringValue
      #expect(firstJTI != nil)
      #expect(firstJTI != (try CompactJWS(parsing: second).claims["jti"]?.stringValue))
      #expect(first != second)
    }
  }
}
