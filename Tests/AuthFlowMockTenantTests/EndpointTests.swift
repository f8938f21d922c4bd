import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct EndpointTests {
  static func passwordLogin(
    _ client: any TestClientProtocol, scope: String = "openid profile email offline_access", audience: String? = nil
  )
    async throws -> [String: Value]
  {
    var body: [String: Value] = [
      "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
      "client_id": .string("native-client-id"), "username": .string("alice@example.com"),
      "password": .string("Alice-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
      "scope": .string(scope),
    ]
    if let audience { body["audience"] = .string(audience) }
    return try await client.postJSON("/oauth/token", body).json
  }

  @Test func discoveryAndJWKS() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let discovery = try await client.execute(uri: "/.well-known/openid-configuration", method: .get).json
      #expect(discovery["issuer"] == .string("http://mock.test/"))
      #expect(discovery["jwks_uri"] == .string("http://mock.test/.well-known/jwks.json"))
      #expect(discovery["code_challenge_methods_supported"] == .array([.string("S256"), .string("plain")]))
      let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get).json
      let key = try #require(jwks["keys"]?.arrayValue?.first?.objectValue)
      #expect(key["kty"] == .string("RSA"))
      #expect(key["alg"] == .string("RS256"))
      #expect(key["kid"] == .string("mock-test"))
      #expect(key["use"] == .string("sig"))
    }
  }

  @Test func userinfoFiltersByScopeWithISOUpdatedAt() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let tokens = try await Self.passwordLogin(client)
      let bearer = "Bearer " + (tokens["access_token"]?.stringValue ?? "")
      let info = try await client.execute(uri: "/userinfo", method: .get, headers: [.authorization: bearer])
      #expect(info.status == .ok)
      #expect(info.json["sub"] == .string("auth0|alice0001"))
      #expect(info.json["email"] == .string("alice@example.com"))
      #expect(info.json["updated_at"] == .string("2023-11-14T22:13:20.000Z"))
      let narrow = try await Self.passwordLogin(client, scope: "openid")
      let onlySub = try await client.execute(
        uri: "/userinfo", method: .get,
        headers: [.authorization: "Bearer " + (narrow["access_token"]?.stringValue ?? "")])
      #expect(onlySub.json["email"] == nil && onlySub.json["sub"] != nil)
      let denied = try await client.execute(uri: "/userinfo", method: .get, headers: [.authorization: "Bearer junk"])
      #expect(denied.status == .unauthorized)
      #expect(try await client.execute(uri: "/userinfo", method: .get).status == .unauthorized)
    }
  }

  @Test func accessTokensExpireOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let tokens = try await Self.passwordLogin(client)
      tenant.clock.advance(by: 86_401)
      let info = try await client.execute(
        uri: "/userinfo", method: .get,
        headers: [.authorization: "Bearer " + (tokens["access_token"]?.stringValue ?? "")])
      #expect(info.status == .unauthorized)
    }
  }

  @Test func revokeEndsTheRefreshTokenFamily() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let refresh = try #require(try await Self.passwordLogin(client)["refresh_token"])
      let revoked = try await client.postJSON(
        "/oauth/revoke", ["client_id": .string("native-client-id"), "token": refresh])
      #expect(revoked.status == .ok)
      #expect(revoked.text.isEmpty)
      let renew = try await client.postJSON(
        "/oauth/token",
        ["grant_type": .string("refresh_token"), "client_id": .string("native-client-id"), "refresh_token": refresh])
      #expect(renew.json["error_description"] == .string("Unknown or invalid refresh token."))
      let unknown = try await client.postJSON(
        "/oauth/revoke", ["client_id": .string("native-client-id"), "token": .string("unknown")])
      #expect(unknown.status == .ok)
      let missing = try await client.postJSON("/oauth/revoke", ["client_id": .string("native-client-id")])
      #expect(missing.json["error"] == .string("invalid_request"))
      let unauthenticated = try await client.postJSON(
        "/oauth/revoke", ["client_id": .string("web-client-id"), "token": refresh])
      #expect(unauthenticated.status == .unauthorized)
      #expect(unauthenticated.json["error"] == .string("invalid_client"))
    }
  }

  @Test func logoutEndsTheSessionAndChecksReturnTo() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      let bad = try await browser.get("/v2/logout?client_id=native-client-id&returnTo=https%3A%2F%2Fevil.example.com")
      #expect(bad.status == .badRequest && bad.location == nil)
      let out = try await browser.get(
        "/v2/logout?federated&client_id=native-client-id&returnTo=\(escape(MockHarness.nativeCallback))")
      #expect(out.location == MockHarness.nativeCallback)
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none")]
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["error"] == "login_required")
      let firstAllowed = try await browser.get("/v2/logout?client_id=native-client-id")
      #expect(firstAllowed.location == "com.example.app://127.0.0.1/ios/com.example.app/callback")
    }
  }

  /// `last_id` counts every message sent, to anyone, across a clear; `after` and `limit` page by
  /// it (what `outbox`'s `after:` marks and reads with).
  @Test func outboxLastIDAfterAndLimit() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      #expect(try await client.execute(uri: "/__mock/outbox?limit=0", method: .get).json["last_id"] == .int(0))
      for email in ["a@example.com", "b@example.com", "a@example.com"] {
        let start = try await client.postJSON(
          "/passwordless/start",
          [
            "client_id": .string("native-client-id"), "connection": .string("email"), "email": .string(email),
            "send": .string("code"),
          ])
        #expect(start.status == .ok)
      }
      let marked = try await client.execute(uri: "/__mock/outbox?limit=0", method: .get).json
      #expect(marked["last_id"] == .int(3) && marked["messages"]?.arrayValue?.isEmpty == true)
      let after = try await client.execute(uri: "/__mock/outbox?to=a@example.com&after=1", method: .get).json
      #expect(after["messages"]?.arrayValue?.map { $0.objectValue?["id"] } == [.int(3)])
      let newest = try await client.execute(uri: "/__mock/outbox?limit=2", method: .get).json
      #expect(newest["messages"]?.arrayValue?.map { $0.objectValue?["id"] } == [.int(2), .int(3)])
      #expect(try await client.execute(uri: "/__mock/outbox", method: .delete).status == .noContent)
      #expect(try await client.execute(uri: "/__mock/outbox?limit=0", method: .get).json["last_id"] == .int(3))
      #expect(try await client.execute(uri: "/__mock/outbox?after=-1", method: .get).status == .badRequest)
    }
  }

  @Test func passwordlessCodeGoesToTheOutboxAndLogsIn() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let start = try await client.postJSON(
        "/passwordless/start",
        [
          "client_id": .string("native-client-id"), "connection": .string("email"),
          "email": .string("pat@example.com"), "send": .string("code"),
        ])
      #expect(start.status == .ok)
      let outbox = try await client.execute(uri: "/__mock/outbox?to=PAT@example.com", method: .get).json
      let message = try #require(outbox["messages"]?.arrayValue?.first?.objectValue)
      let code = try #require(message["code"])
      func login(_ otp: Value) async throws -> TestResponse {
        try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("http://auth0.com/oauth/grant-type/passwordless/otp"),
            "client_id": .string("native-client-id"), "username": .string("pat@example.com"), "otp": otp,
            "realm": .string("email"),
          ])
      }
      #expect(
        try await login(.string("999999x")).json["error_description"] == .string("Wrong email or verification code."))
      let ok = try await login(code)
      #expect(ok.status == .ok)
      #expect(ok.json["id_token"] != nil)
      let badPhone = try await client.postJSON(
        "/passwordless/start",
        ["client_id": .string("native-client-id"), "connection": .string("sms"), "phone_number": .string("555")])
      #expect(badPhone.json["error"] == .string("bad.phone_number"))
    }
  }

  /// Auth0's schema admits only its own properties (docs/protocol.md §4.3): a misspelt `phone` for
  /// `phone_number`, or anything else, is `bad.request` naming them, and no code is sent.
  @Test func passwordlessStartRefusesPropertiesItDoesNotKnow() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let base: [String: Value] = [
        "client_id": .string("native-client-id"), "connection": .string("email"), "email": .string("kim@example.com"),
        "send": .string("code"),
      ]
      let unknown = try await client.postJSON(
        "/passwordless/start", base.merging(["phone": .string("+15550100"), "Connection": .string("sms")]) { $1 })
      #expect(unknown.status == .badRequest)
      #expect(unknown.json["error"] == .string("bad.request"))
      #expect(
        unknown.json["error_description"] == .string("the following properties are not allowed: Connection, phone"))
      let authParams = try await client.postJSON(
        "/passwordless/start", base.merging(["authParams": .string("scope=openid")]) { $1 })
      #expect(authParams.json["error"] == .string("bad.authParams"))
      let outbox = try await client.execute(uri: "/__mock/outbox?to=kim@example.com", method: .get).json
      #expect(outbox["messages"]?.arrayValue?.isEmpty == true)
      // What the SDKs send, client authentication and link parameters included, is admitted.
      let admitted = try await client.postJSON(
        "/passwordless/start",
        base.merging(["authParams": .object(["scope": .string("openid")]), "client_secret": .string("x")]) { $1 })
      #expect(admitted.status == .ok)
    }
  }

  @Test func clockAdvanceAndReset() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let before = try await client.execute(uri: "/__mock/clock", method: .get).json["now"]?.intValue ?? 0
      let advanced = try await client.postJSON("/__mock/clock/advance", ["seconds": .int(3600)])
      #expect(advanced.json["now"]?.intValue == before + 3600)
      #expect(try await client.postJSON("/__mock/clock/advance", [:]).status == .badRequest)
      let reset = try await client.execute(uri: "/__mock/reset", method: .post)
      #expect(reset.status == .noContent)
      #expect(try await client.execute(uri: "/__mock/clock", method: .get).json["now"]?.intValue == before)
    }
  }
}
