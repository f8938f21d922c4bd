import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import AuthFlowMockTenant

/// Management API v2 users: envelopes, scopes, the current-user rule and the link rules.
@Suite struct ManagementUserTests {
  static let audience = "http://mock.test/api/v2/"

  /// A password-realm token for `email` with `scope` and `audience`.
  static func token(
    _ client: any TestClientProtocol, email: String = "alice@example.com", password: String = "Alice-Passw0rd!",
    scope: String, audience: String = audience
  ) async throws -> [String: Value] {
    let response = try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
        "client_id": .string("native-client-id"), "username": .string(email), "password": .string(password),
        "realm": .string("Username-Password-Authentication"), "audience": .string(audience), "scope": .string(scope),
      ])
    #expect(response.status == .ok, "\(response.text)")
    return response.json
  }

  static func call(
    _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, bearer: String?,
    body: Value? = nil
  ) async throws -> TestResponse {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let bearer { headers[.authorization] = "Bearer \(bearer)" }
    return try await client.execute(
      uri: uri, method: method, headers: headers,
      body: body.map { ByteBuffer(string: $0.jsonText(revealSecrets: true)) })
  }

  static func expectError(_ response: TestResponse, _ status: Int, _ errorCode: String) {
    #expect(response.status.code == status)
    #expect(response.json["statusCode"] == .int(status))
    #expect(response.json["errorCode"] == .string(errorCode))
    #expect(response.json["error"]?.stringValue?.isEmpty == false)
    #expect(response.json["message"]?.stringValue?.isEmpty == false)
  }

  @Test func getFiltersFieldsAndPatchMerges() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let access = try #require(
        try await Self.token(
          client, scope: "openid read:current_user update:current_user_metadata delete:current_user_metadata")[
            "access_token"]?
          .stringValue)
      let full = try await Self.call(client, .get, "/api/v2/users/auth0%7Calice0001", bearer: access)
      #expect(full.status == .ok)
      #expect(full.json["identities"]?.arrayValue?.first?.member("user_id") == .string("alice0001"))
      let some = try await Self.call(
        client, .get, "/api/v2/users/auth0%7Calice0001?fields=email,user_id&include_fields=true", bearer: access)
      #expect(some.json.keys.sorted() == ["email", "user_id"])
      let rest = try await Self.call(
        client, .get, "/api/v2/users/auth0%7Calice0001?fields=email,identities&include_fields=false", bearer: access)
      #expect(rest.json["email"] == nil && rest.json["identities"] == nil && rest.json["user_id"] != nil)
      let patched = try await Self.call(
        client, .patch, "/api/v2/users/auth0%7Calice0001", bearer: access,
        body: .object(["user_metadata": .object(["theme": .string("dark"), "favorite_color": .null])]))
      #expect(patched.status == .ok)
      #expect(patched.json["user_metadata"] == .object(["theme": .string("dark")]))
      let other = try await Self.call(
        client, .patch, "/api/v2/users/auth0%7Calice0001", bearer: access,
        body: .object(["app_metadata": .object(["roles": .array([])])]))
      Self.expectError(other, 400, "invalid_body")
    }
  }

  @Test func currentUserRuleAndScopesAreEnforced() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let access = try #require(
        try await Self.token(client, scope: "openid read:current_user")["access_token"]?.stringValue)
      Self.expectError(
        try await Self.call(client, .get, "/api/v2/users/auth0%7Cbob0002", bearer: access), 403, "insufficient_scope")
      Self.expectError(
        try await Self.call(
          client, .patch, "/api/v2/users/auth0%7Calice0001", bearer: access,
          body: .object(["user_metadata": .object([:])])), 403, "insufficient_scope")
      Self.expectError(
        try await Self.call(client, .get, "/api/v2/users/auth0%7Calice0001", bearer: nil), 401, "missing_authentication"
      )
      Self.expectError(
        try await Self.call(client, .get, "/api/v2/users/auth0%7Calice0001", bearer: access + "x"), 401, "invalid_token"
      )
      // A token for another audience (the userinfo-only token of a login without audience) is refused.
      let plain = try #require(
        try await Self.token(client, scope: "openid", audience: "https://api.example.com")["access_token"]?.stringValue)
      Self.expectError(
        try await Self.call(client, .get, "/api/v2/users/auth0%7Calice0001", bearer: plain), 401, "invalid_token")
      // An admin token (client credentials, read:users) reads any user; unknown users are 404.
      let m2m = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
          "client_secret": .string("m2m-client-secret"), "audience": .string(Self.audience),
        ])
      let admin = try #require(m2m.json["access_token"]?.stringValue)
      #expect(try await Self.call(client, .get, "/api/v2/users/auth0%7Cbob0002", bearer: admin).status == .ok)
      Self.expectError(
        try await Self.call(client, .get, "/api/v2/users/auth0%7Cnobody", bearer: admin), 404, "inexistent_user")
    }
  }

  @Test func theAdminLinkFormNeedsAClientCredentialsToken() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let body = Value.object(["provider": .string("auth0"), "user_id": .string("bob0002")])
      // A user-context token must prove the secondary account with `link_with`.
      let user = try #require(
        try await Self.token(client, scope: "openid update:current_user_identities")["access_token"]?.stringValue)
      Self.expectError(
        try await Self.call(client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: user, body: body),
        400, "invalid_body")
      let admin = try await InvitationTests.m2mToken(client, scope: "update:users")
      let linked = try await Self.call(
        client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: admin, body: body)
      #expect(linked.status == .created, "\(linked.text)")
      let identities = try #require(try Value(json: Data(linked.text.utf8)).arrayValue)
      #expect(identities.last?.member("user_id") == .string("bob0002"))
    }
  }

  @Test func linkRequiresAnIDTokenIssuedToTheCallingApp() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let access = try #require(
        try await Self.token(client, scope: "openid update:current_user_identities")["access_token"]?.stringValue)
      var authenticator = VirtualAuthenticator()
      let secondaryID = try await PasskeyTests.signup(client, &authenticator, email: "second@example.com")
      let tenant = try MockHarness.tenant()
      // An ID token for the secondary user, correctly signed, but for another app (aud ≠ azp).
      let foreign = try MockHarness.key.sign(claims: [
        "iss": .string("http://mock.test/"), "sub": .string(secondaryID), "aud": .string("web-client-id"),
        "iat": .int(tenant.clock.epoch), "exp": .int(tenant.clock.epoch + 600),
      ])
      Self.expectError(
        try await Self.call(
          client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: access,
          body: .object(["link_with": .string(foreign)])), 400, "invalid_body")
      // Signed with another key: rejected.
      let forged = try SigningKey.generateES256().sign(claims: [
        "iss": .string("http://mock.test/"), "sub": .string(secondaryID), "aud": .string("native-client-id"),
      ])
      Self.expectError(
        try await Self.call(
          client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: access,
          body: .object(["link_with": .string(forged)])), 400, "invalid_body")
      let good = try MockHarness.key.sign(claims: [
        "iss": .string("http://mock.test/"), "sub": .string(secondaryID), "aud": .string("native-client-id"),
        "iat": .int(tenant.clock.epoch), "exp": .int(tenant.clock.epoch + 600),
      ])
      let linked = try await Self.call(
        client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: access,
        body: .object(["link_with": .string(good)]))
      #expect(linked.status == .created)
      let identities = (try? Value(json: Data(linked.text.utf8)))?.arrayValue ?? []
      #expect(identities.count == 2)
      Self.expectError(
        try await Self.call(
          client, .post, "/api/v2/users/auth0%7Calice0001/identities", bearer: access,
          body: .object(["link_with": .string(good)])), 409, "identity_conflict")
      let secondaryPart = String(secondaryID.dropFirst("auth0|".count))
      let unlinked = try await Self.call(
        client, .delete, "/api/v2/users/auth0%7Calice0001/identities/auth0/\(secondaryPart)", bearer: access)
      #expect(unlinked.status == .ok)
      #expect((try? Value(json: Data(unlinked.text.utf8)))?.arrayValue?.count == 1)
      Self.expectError(
        try await Self.call(
          client, .delete, "/api/v2/users/auth0%7Calice0001/identities/auth0/\(secondaryPart)", bearer: access), 404,
        "inexistent_identity")
    }
  }
}
