import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `POST /otp/challenge` and the passwordless/otp grant with `auth_session` (docs/protocol.md §3.1, §4.4).
@Suite struct OTPChallengeTests {
  static func challenge(
    _ client: any TestClientProtocol, _ identifier: [String: Value], allowSignup: Bool = false,
    clientID: String = "native-client-id"
  ) async throws -> TestResponse {
    var body: [String: Value] = [
      "client_id": .string(clientID), "connection": .string("Username-Password-Authentication"),
      "allow_signup": .bool(allowSignup),
    ]
    body.merge(identifier) { _, new in new }
    return try await client.postJSON("/otp/challenge", body)
  }

  static func token(
    _ client: any TestClientProtocol, session: String, otp: String, clientID: String = "native-client-id"
  ) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("http://auth0.com/oauth/grant-type/passwordless/otp"),
        "client_id": .string(clientID), "auth_session": .string(session), "otp": .string(otp),
        "scope": .string("openid email"),
      ])
  }

  static func session(_ response: TestResponse) throws -> String {
    #expect(response.status == .ok)
    #expect(response.json.keys.sorted() == ["auth_session"])
    return try #require(response.json["auth_session"]?.stringValue)
  }

  static func wrong(than code: String) -> String { code == "000000" ? "000001" : "000000" }

  @Test func existingUserLogsInWithTheCodeFromTheOutbox() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.code)
      let done = try await Self.token(client, session: session, otp: code)
      #expect(done.status == .ok)
      let idToken = try #require(done.json["id_token"]?.stringValue)
      #expect(JWTValue(raw: idToken)?.claims["email"] == .string("alice@example.com"))
      #expect(JWTValue(raw: idToken)?.claims["sub"] == .string("auth0|alice0001"))
    }
  }

  @Test func aWrongOTPIsRefusedAndThreeUseTheSessionUp() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.code)
      let first = try await Self.token(client, session: session, otp: Self.wrong(than: code))
      #expect(first.status == .forbidden)
      #expect(first.json["error"] == .string("invalid_grant"))
      #expect(first.json["error_description"] == .string("Wrong email or verification code."))
      _ = try await Self.token(client, session: session, otp: Self.wrong(than: code))
      let third = try await Self.token(client, session: session, otp: Self.wrong(than: code))
      #expect(
        third.json["error_description"]
          == .string("You've reached the maximum number of attempts. Please try to login again."))
      let late = try await Self.token(client, session: session, otp: code)
      #expect(late.status == .forbidden)
      #expect(late.json["error_description"] == .string("The auth_session is invalid or has expired."))
    }
  }

  @Test func theSessionIsSingleUse() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.code)
      #expect(try await Self.token(client, session: session, otp: code).status == .ok)
      let reused = try await Self.token(client, session: session, otp: code)
      #expect(reused.status == .forbidden)
      #expect(reused.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func theSessionExpires() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.code)
      tenant.clock.advance(by: OTPChallengeRoutes.lifetime + 1)
      let late = try await Self.token(client, session: session, otp: code)
      #expect(late.status == .forbidden)
      #expect(late.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func theSessionIsBoundToItsClient() async throws {
    let tenant = try MockHarness.tenant {
      $0.clients["web"]?.grantTypes.append("http://auth0.com/oauth/grant-type/passwordless/otp")
    }
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("alice@example.com")]))
      let code = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.code)
      let web = try #require(tenant.fixture.clients["web"])
      var body: [String: Value] = [
        "grant_type": .string("http://auth0.com/oauth/grant-type/passwordless/otp"),
        "client_id": .string(web.clientID), "auth_session": .string(session), "otp": .string(code),
      ]
      if let secret = web.clientSecret { body["client_secret"] = .string(secret) }
      let other = try await client.postJSON("/oauth/token", body)
      #expect(other.status == .forbidden)
      #expect(other.json["error_description"] == .string("The auth_session is invalid or has expired."))
      // Refused before the code was compared: the right client can still use it.
      #expect(try await Self.token(client, session: session, otp: code).status == .ok)
    }
  }

  @Test func anUnknownUserGetsASessionButNoCodeWithoutAllowSignup() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let session = try Self.session(try await Self.challenge(client, ["email": .string("nobody@example.com")]))
      #expect(tenant.read({ $0.outbox.list(to: "nobody@example.com") }).isEmpty)
      let attempt = try await Self.token(client, session: session, otp: "123456")
      #expect(attempt.status == .forbidden)
      #expect(attempt.json["error_description"] == .string("Wrong email or verification code."))
      #expect(
        tenant.read({ $0.users.find("nobody@example.com", connection: "Username-Password-Authentication") }) == nil
      )
    }
  }

  @Test func allowSignupCreatesTheUserAtTheTokenStep() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let response = try await Self.challenge(client, ["phone_number": .string("+14155550199")], allowSignup: true)
      let session = try Self.session(response)
      #expect(
        tenant.read({ $0.users.find("+14155550199", connection: "Username-Password-Authentication") }) == nil)
      let message = try #require(tenant.read({ $0.outbox.list(to: "+14155550199") }).last)
      #expect(message.channel == .sms)
      let wrong = try await Self.token(client, session: session, otp: Self.wrong(than: message.code ?? ""))
      #expect(wrong.json["error_description"] == .string("Wrong phone number or verification code."))
      let done = try await Self.token(client, session: session, otp: try #require(message.code))
      #expect(done.status == .ok)
      let user = try #require(
        tenant.read({ $0.users.find("+14155550199", connection: "Username-Password-Authentication") }))
      #expect(user.userID.hasPrefix("auth0|"))
    }
  }

  @Test func badRequestsAreFourHundreds() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      #expect(try await client.postJSON("/otp/challenge", ["connection": .string("x")]).status == .badRequest)
      let noConnection = try await client.postJSON(
        "/otp/challenge", ["client_id": .string("native-client-id"), "email": .string("a@example.com")])
      #expect(noConnection.json["error_description"] == .string("Missing required parameter: connection"))
      let notDatabase = try await client.postJSON(
        "/otp/challenge",
        [
          "client_id": .string("native-client-id"), "connection": .string("email"),
          "email": .string("a@example.com"),
        ])
      #expect(notDatabase.status == .badRequest)
      let badPhone = try await Self.challenge(client, ["phone_number": .string("555")])
      #expect(badPhone.json["error"] == .string("bad.phone_number"))
      let voice = try await Self.challenge(
        client, ["phone_number": .string("+14155550100"), "delivery_method": .string("fax")])
      #expect(voice.status == .badRequest)
      #expect(try await Self.challenge(client, [:]).status == .badRequest)
      let unknownClient = try await Self.challenge(client, ["email": .string("a@example.com")], clientID: "nope")
      #expect(unknownClient.status == .unauthorized)
      let malformed = try await client.execute(
        uri: "/otp/challenge", method: .post, headers: [.contentType: "application/json"],
        body: ByteBuffer(string: "{"))
      #expect(malformed.status == .badRequest)
    }
  }
}
