import AuthFlowCore
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §2.3 (access token privilege restriction) and OWASP ASVS V4.2.1 (no access to
/// other users' records): a token issued in a user's context for the Management API carries only
/// the current-user scopes and acts only on its own user; admin scopes come only to a
/// client-credentials client, within its client grant.
@Suite("RFC 9700 §2.3 / ASVS V4.2.1 – access token privilege restriction (Management API)")
struct RFC9700_2_3_AccessTokenPrivilegeRestrictionTests {
  static let audience = ManagementUserTests.audience
  static let admin = "read:users update:users create:organization_invitations read:organization_invitations"
  static let bob = "/api/v2/users/auth0%7Cbob0002"

  static func scopes(of response: [String: Value]) -> Set<String> {
    Set(Scope.parse(response["scope"]?.stringValue))
  }

  @Test func passwordRealmDropsAdminScopesAndKeepsCurrentUserOnes() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let tokens = try await ManagementUserTests.token(
        client, scope: "openid read:current_user update:current_user_metadata " + Self.admin)
      let scope = Self.scopes(of: tokens)
      #expect(scope == ["openid", "read:current_user", "update:current_user_metadata"])
      let access = try #require(tokens["access_token"]?.stringValue)
      let claims = try SecurityProbe.claims(of: access)
      let carried = Set(Scope.parse(claims["scope"]?.stringValue))
      #expect(carried.isDisjoint(with: Scope.parse(Self.admin)))
    }
  }

  @Test func authorizationCodeDropsAdminScopes() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.scope = "openid read:current_user read:users update:users"
      parameters.extra = [("audience", Self.audience)]
      let code = try await SecurityProbe.code(&browser, parameters)
      let response = try await client.exchange(code: code, verifier: parameters.verifier)
      #expect(response.status == .ok, "\(response.text)")
      #expect(Self.scopes(of: response.json) == ["openid", "read:current_user"])
    }
  }

  @Test func aUserTokenCannotReadOrPatchAnotherUser() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let access = try #require(
        try await ManagementUserTests.token(
          client, scope: "openid read:current_user update:current_user_metadata " + Self.admin)["access_token"]?
          .stringValue)
      let read = try await ManagementUserTests.call(client, .get, Self.bob, bearer: access)
      ManagementUserTests.expectError(read, 403, "insufficient_scope")
      #expect(read.json["error"] == .string("Forbidden"))
      #expect(read.json["message"] == .string("Insufficient scope, expected any of: read:users"))
      let patch = try await ManagementUserTests.call(
        client, .patch, Self.bob, bearer: access, body: .object(["user_metadata": .object(["x": .int(1)])]))
      ManagementUserTests.expectError(patch, 403, "insufficient_scope")
      #expect(patch.json["message"] == .string("Insufficient scope, expected any of: update:users"))
      // Its own user is fine.
      let own = try await ManagementUserTests.call(client, .get, "/api/v2/users/auth0%7Calice0001", bearer: access)
      #expect(own.status == .ok)
    }
  }

  /// A key set to null deletes it: a user-context token needs `delete:current_user_metadata`
  /// for that, `create:`/`update:current_user_metadata` only to set keys.
  @Test func deletingMetadataNeedsTheDeleteScope() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let alice = "/api/v2/users/auth0%7Calice0001"
      let update = try #require(
        try await ManagementUserTests.token(client, scope: "openid read:current_user update:current_user_metadata")[
          "access_token"]?.stringValue)
      let refused = try await ManagementUserTests.call(
        client, .patch, alice, bearer: update, body: .object(["user_metadata": .object(["favorite_color": .null])]))
      ManagementUserTests.expectError(refused, 403, "insufficient_scope")
      #expect(refused.json["message"] == .string("Insufficient scope, expected any of: delete:current_user_metadata"))
      let mixed = try await ManagementUserTests.call(
        client, .patch, alice, bearer: update,
        body: .object(["user_metadata": .object(["theme": .string("dark"), "favorite_color": .null])]))
      ManagementUserTests.expectError(mixed, 403, "insufficient_scope")
      let unchanged = try await ManagementUserTests.call(client, .get, alice, bearer: update)
      #expect(unchanged.json["user_metadata"]?.member("favorite_color") == .string("blue"), "nothing was applied")
      #expect(unchanged.json["user_metadata"]?.member("theme") == nil, "nothing was applied")

      let delete = try #require(
        try await ManagementUserTests.token(client, scope: "openid read:current_user delete:current_user_metadata")[
          "access_token"]?.stringValue)
      let setting = try await ManagementUserTests.call(
        client, .patch, alice, bearer: delete, body: .object(["user_metadata": .object(["theme": .string("dark")])]))
      ManagementUserTests.expectError(setting, 403, "insufficient_scope")
      let deleted = try await ManagementUserTests.call(
        client, .patch, alice, bearer: delete, body: .object(["user_metadata": .object(["favorite_color": .null])]))
      #expect(deleted.status == .ok, "\(deleted.text)")
      #expect(deleted.json["user_metadata"]?.member("favorite_color") == nil)
    }
  }

  @Test func aUserTokenCannotManageOrganizationInvitations() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let access = try #require(
        try await ManagementUserTests.token(client, scope: "openid " + Self.admin)["access_token"]?.stringValue)
      let listing = try await ManagementUserTests.call(
        client, .get, "/api/v2/organizations/org_acme123/invitations", bearer: access)
      ManagementUserTests.expectError(listing, 403, "insufficient_scope")
    }
  }

  @Test func aRefreshPolicyForTheManagementAPIYieldsCurrentUserScopesOnly() async throws {
    let tenant = try MockHarness.tenant { fixture in
      fixture.clients["native"]?.refreshTokenPolicies.append(
        RefreshTokenPolicy(audience: "management", scope: ["read:users", "read:current_user"]))
    }
    try await MockHarness.test(tenant) { client in
      let refresh = try #require(
        try await SecurityProbe.tokens(client, scope: "openid offline_access")["refresh_token"]?.stringValue)
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"),
          "refresh_token": .string(refresh), "audience": .string(Self.audience),
        ])
      #expect(response.status == .ok, "\(response.text)")
      #expect(!Self.scopes(of: response.json).contains("read:users"))
    }
  }

  @Test func clientCredentialsCarryOnlyTheClientGrant() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
          "client_secret": .string("m2m-client-secret"), "audience": .string(Self.audience),
          "scope": .string("read:users delete:users read:current_user"),
        ])
      #expect(response.status == .ok, "\(response.text)")
      #expect(Self.scopes(of: response.json) == ["read:users"])
      let access = try #require(response.json["access_token"]?.stringValue)
      #expect(try await ManagementUserTests.call(client, .get, Self.bob, bearer: access).status == .ok)
    }
  }

  @Test func clientCredentialsWithoutAClientGrantAreRefused() async throws {
    let tenant = try MockHarness.tenant { fixture in
      fixture.clients["m2m"]?.apiGrants.removeValue(forKey: "management")
    }
    try await MockHarness.test(tenant) { client in
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
          "client_secret": .string("m2m-client-secret"), "audience": .string(Self.audience),
        ])
      #expect(response.status == .forbidden, "\(response.text)")
      #expect(response.json["error"] == .string("access_denied"))
      #expect(response.json["access_token"] == nil)
    }
  }
}
