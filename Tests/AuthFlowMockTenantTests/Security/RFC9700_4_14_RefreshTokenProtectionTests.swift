import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.14 (refresh token protection): a refresh token is bound to its client (another client
/// can neither use nor burn nor revoke it), and a blocked user's refresh tokens stop working.
@Suite("RFC 9700 §4.14 – refresh token protection")
struct RFC9700_4_14_RefreshTokenProtectionTests {
  @Test func aRefreshTokenIsBoundToItsClientAndAnotherClientCannotBurnIt() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      let stolen = try await TokenProbe.refresh(client, token, clientID: "web-client-id", secret: "web-client-secret")
      #expect(stolen.status == .forbidden)
      #expect(stolen.json["error_description"] == .string("Unknown or invalid refresh token."))
      // The failed theft neither revoked the family nor counted as a reuse.
      let own = try await TokenProbe.refresh(client, token)
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
      #expect(try await TokenProbe.refresh(client, token).status == .ok)
      // A wrong secret is refused before anything is looked at.
      let wrongSecret = try await client.postJSON(
        "/oauth/revoke",
        ["client_id": .string("web-client-id"), "client_secret": .string("nope"), "token": .string(token)])
      #expect(wrongSecret.status == .unauthorized)
      #expect(wrongSecret.json["error"] == .string("invalid_client"))
    }
  }

  @Test func aBlockedUsersRefreshTokenStopsWorking() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      var alice = try #require(tenant.read({ $0.users.user(id: "auth0|alice0001") }))
      alice.blocked = true
      tenant.transact { $0.users.update(alice) }
      let response = try await TokenProbe.refresh(client, token)
      #expect(response.status == .unauthorized)
      #expect(response.json["error"] == .string("unauthorized"))
      #expect(response.json["error_description"] == .string("user is blocked"))
    }
  }
}
