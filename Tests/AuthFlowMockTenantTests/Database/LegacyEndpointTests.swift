import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Lock v1's `/oauth/ro` and `/oauth/access_token` (docs/protocol.md §10): only for clients that keep the
/// legacy grants (the `legacy` fixture client).
@Suite struct LegacyEndpointTests {
  static let ro = "http://auth0.com/oauth/legacy/grant-type/ro"
  static let accessTokenGrant = "http://auth0.com/oauth/legacy/grant-type/access_token"

  static func roBody(
    client: String = "legacy-client-id", username: String = "alice@example.com",
    password: String = "Alice-Passw0rd!", scope: String = "openid name email"
  ) -> [String: Value] {
    [
      "client_id": .string(client), "connection": .string("Username-Password-Authentication"),
      "grant_type": .string("password"), "username": .string(username), "password": .string(password),
      "scope": .string(scope),
    ]
  }

  @Test func disabledForClientsWithoutTheLegacyGrant() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let ro = try await client.postJSON("/oauth/ro", Self.roBody(client: "native-client-id"))
      #expect(ro.status == .forbidden)
      #expect(ro.json["error"] == .string("unauthorized_client"))
      #expect(ro.json["error_description"] == .string("Grant type '\(Self.ro)' not allowed for the client."))
      #expect(ro.json["id_token"] == nil)
      let social = try await client.postJSON(
        "/oauth/access_token",
        [
          "client_id": .string("native-client-id"), "connection": .string("facebook"),
          "access_token": .string("facebook-session-token-dave"),
        ])
      #expect(social.status == .forbidden)
      #expect(
        social.json["error_description"] == .string("Grant type '\(Self.accessTokenGrant)' not allowed for the client.")
      )
    }
  }

  @Test func roAnswersIDAndAccessTokensWithLegacyClaims() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON("/oauth/ro", Self.roBody())
      #expect(response.status == .ok)
      #expect(Set(response.json.keys) == ["id_token", "access_token", "token_type"])
      #expect(response.json["token_type"] == .string("Bearer"))
      let idToken = try CompactJWS(parsing: try #require(response.json["id_token"]?.stringValue))
      #expect(idToken.claims["aud"] == .string("legacy-client-id"))
      #expect(idToken.claims["name"] == .string("Alice Example"))
      #expect(idToken.claims["email"] == .string("alice@example.com"))
      #expect(idToken.claims["picture"] == nil)
      let form = try await client.postForm(
        "/oauth/ro",
        [
          ("client_id", "legacy-client-id"), ("connection", "Username-Password-Authentication"),
          ("grant_type", "password"), ("username", "alice@example.com"), ("password", "Alice-Passw0rd!"),
          ("scope", "openid offline_access"), ("device", "QA iPhone"),
        ])
      #expect(form.status == .ok)
      #expect(form.json["refresh_token"]?.stringValue != nil)
      let noDevice = try await client.postJSON("/oauth/ro", Self.roBody(scope: "openid offline_access"))
      #expect(noDevice.json["refresh_token"] == nil)
    }
  }

  @Test func roErrorsAreThoseOfSection10() async throws {
    let tenant = try MockHarness.tenant { $0.settings.bruteForceLimit = 2 }
    try await MockHarness.test(tenant) { client in
      let wrong = try await client.postJSON("/oauth/ro", Self.roBody(password: "nope"))
      #expect(wrong.status == .unauthorized)
      #expect(wrong.json["error"] == .string("invalid_user_password"))
      #expect(wrong.json["error_description"] == .string("Wrong email or password."))
      let blocked = try await client.postJSON(
        "/oauth/ro", Self.roBody(username: "blocked@example.com", password: "Blocked-Passw0rd!"))
      #expect(blocked.status == .unauthorized)
      #expect(blocked.json["error"] == .string("unauthorized"))
      #expect(blocked.json["error_description"] == .string("user is blocked"))
      let mfa = try await client.postJSON(
        "/oauth/ro", Self.roBody(username: "bob@example.com", password: "Bob-Passw0rd!"))
      #expect(mfa.status == .unauthorized)
      #expect(mfa.json["error"] == .string("a0.mfa_required"))
      #expect(mfa.json["id_token"] == nil && mfa.json["access_token"] == nil)
      _ = try await client.postJSON("/oauth/ro", Self.roBody(password: "nope"))
      let locked = try await client.postJSON("/oauth/ro", Self.roBody())
      #expect(locked.status == .tooManyRequests)
      #expect(locked.json["error"] == .string("too_many_attempts"))
      var noConnection = Self.roBody()
      noConnection["connection"] = nil
      let missing = try await client.postJSON("/oauth/ro", noConnection)
      #expect(missing.status == .badRequest)
      #expect(missing.json["error_description"] == .string("Missing required parameter: connection"))
      var social = Self.roBody()
      social["connection"] = .string("facebook")
      let notDatabase = try await client.postJSON("/oauth/ro", social)
      #expect(notDatabase.json["error_description"] == .string("the connection was not found"))
      var jwtBearer = Self.roBody()
      jwtBearer["grant_type"] = .string("urn:ietf:params:oauth:grant-type:jwt-bearer")
      let unsupported = try await client.postJSON("/oauth/ro", jwtBearer)
      #expect(unsupported.json["error"] == .string("unsupported_grant_type"))
      let unknownClient = try await client.postJSON("/oauth/ro", Self.roBody(client: "nope"))
      #expect(unknownClient.status == .unauthorized)
    }
  }

  @Test func accessTokenExchangesAProviderTokenOnly() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let body: [String: Value] = [
        "client_id": .string("legacy-client-id"), "connection": .string("facebook"),
        "access_token": .string("facebook-session-token-dave"), "scope": .string("openid email"),
      ]
      let response = try await client.postJSON("/oauth/access_token", body)
      #expect(response.status == .ok)
      #expect(response.json["token_type"] == .string("Bearer"))
      #expect(response.json["access_token"]?.stringValue != nil)
      let idToken = try CompactJWS(parsing: try #require(response.json["id_token"]?.stringValue))
      #expect(idToken.claims["sub"] == .string("facebook|10150000000000001"))
      var forged = body
      forged["access_token"] = .string("facebook-session-token-mallory")
      let rejected = try await client.postJSON("/oauth/access_token", forged)
      #expect(rejected.status == .unauthorized)
      #expect(rejected.json["id_token"] == nil && rejected.json["access_token"] == nil)
      var database = body
      database["connection"] = .string("Username-Password-Authentication")
      let notSocial = try await client.postJSON("/oauth/access_token", database)
      #expect(notSocial.status == .badRequest)
      var missing = body
      missing["access_token"] = nil
      let noToken = try await client.postJSON("/oauth/access_token", missing)
      #expect(noToken.json["error_description"] == .string("Missing required parameter: access_token"))
    }
  }
}
