import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/passkey/register`, `/passkey/challenge` and the webauthn grant, driven by a virtual
/// authenticator over the router.
@Suite struct PasskeyTests {
  static let grant = "urn:okta:params:oauth:grant-type:webauthn"
  /// The mock's relying party: the host of its base URL.
  static let rpID = "mock.test"
  static let origin = "https://mock.test"

  struct Started {
    var authSession: String
    var challenge: String
    var userHandle: [UInt8]
  }

  static func register(_ client: any TestClientProtocol, email: String) async throws -> Started {
    let response = try await client.postJSON(
      "/passkey/register",
      ["client_id": .string("native-client-id"), "user_profile": .object(["email": .string(email)])])
    #expect(response.status == .ok)
    let options = try #require(response.json["authn_params_public_key"])
    #expect(options.member("rp")?.member("id") == .string(rpID))
    #expect(options.member("user")?.member("name") == .string(email))
    #expect(options.member("timeout") == .int(60000))
    return Started(
      authSession: try #require(response.json["auth_session"]?.stringValue),
      challenge: try #require(options.member("challenge")?.stringValue),
      userHandle: Array(try #require(Base64URL.decode(options.member("user")?.member("id")?.stringValue ?? ""))))
  }

  static func challenge(_ client: any TestClientProtocol) async throws -> (authSession: String, challenge: String) {
    let response = try await client.postJSON("/passkey/challenge", ["client_id": .string("native-client-id")])
    #expect(response.status == .ok)
    let options = try #require(response.json["authn_params_public_key"])
    #expect(options.member("rpId") == .string(rpID))
    return (
      try #require(response.json["auth_session"]?.stringValue), try #require(options.member("challenge")?.stringValue)
    )
  }

  static func token(_ client: any TestClientProtocol, session: String, response: Value) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string(grant), "client_id": .string("native-client-id"), "auth_session": .string(session),
        "authn_response": response, "scope": .string("openid email"),
      ])
  }

  /// Signs up `email` with `authenticator`; returns the user id.
  static func signup(
    _ client: any TestClientProtocol, _ authenticator: inout VirtualAuthenticator, email: String
  ) async throws -> String {
    let started = try await register(client, email: email)
    let response = authenticator.register(
      rpID: rpID, userHandle: started.userHandle, userName: email, challenge: started.challenge, origin: origin)
    let token = try await Self.token(client, session: started.authSession, response: response)
    #expect(token.status == .ok, "\(token.text)")
    let idToken = try #require(JWTValue(raw: token.json["id_token"]?.stringValue ?? ""))
    #expect(idToken.claims["email"] == .string(email))
    #expect(idToken.claims["email_verified"] == .bool(false))
    return try #require(idToken.claims["sub"]?.stringValue)
  }

  @Test func signupThenLoginIssuesTokensForTheSameUser() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var authenticator = VirtualAuthenticator()
      let userID = try await Self.signup(client, &authenticator, email: "new@example.com")
      for _ in 0..<2 {
        let (session, challenge) = try await Self.challenge(client)
        let assertion = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
        let token = try await Self.token(client, session: session, response: assertion)
        #expect(token.status == .ok, "\(token.text)")
        #expect(JWTValue(raw: token.json["id_token"]?.stringValue ?? "")?.claims["sub"] == .string(userID))
      }
      // The new user can not sign up again.
      let again = try await client.postJSON(
        "/passkey/register",
        ["client_id": .string("native-client-id"), "user_profile": .object(["email": .string("new@example.com")])])
      #expect(again.status == .badRequest)
      #expect(again.json["error_description"] == .string("The user already exists."))
    }
  }

  @Test func authSessionIsSingleUseEvenAfterAFailure() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var authenticator = VirtualAuthenticator()
      _ = try await Self.signup(client, &authenticator, email: "once@example.com")
      let (session, challenge) = try await Self.challenge(client)
      let assertion = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
      let first = try await Self.token(client, session: session, response: assertion)
      #expect(first.status == .ok)
      let replay = try await Self.token(client, session: session, response: assertion)
      #expect(replay.status == .forbidden)
      #expect(replay.json["error"] == .string("invalid_grant"))
      #expect(replay.json["error_description"] == .string("The auth_session is invalid, expired or already used."))
      // A failed attempt consumes the session too.
      let (second, secondChallenge) = try await Self.challenge(client)
      let wrong = try authenticator.assert(rpID: Self.rpID, challenge: "not-the-challenge", origin: Self.origin)
      #expect(try await Self.token(client, session: second, response: wrong).status == .forbidden)
      let right = try authenticator.assert(rpID: Self.rpID, challenge: secondChallenge, origin: Self.origin)
      #expect(try await Self.token(client, session: second, response: right).status == .forbidden)
    }
  }

  @Test func replayedSignCountIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var authenticator = VirtualAuthenticator()
      _ = try await Self.signup(client, &authenticator, email: "clone@example.com")
      let clone = authenticator
      let (first, firstChallenge) = try await Self.challenge(client)
      let assertion = try authenticator.assert(rpID: Self.rpID, challenge: firstChallenge, origin: Self.origin)
      #expect(try await Self.token(client, session: first, response: assertion).status == .ok)
      // A cloned authenticator signs a fresh challenge with the counter the server already saw.
      var cloned = clone
      let (second, secondChallenge) = try await Self.challenge(client)
      let stale = try cloned.assert(rpID: Self.rpID, challenge: secondChallenge, origin: Self.origin)
      let response = try await Self.token(client, session: second, response: stale)
      #expect(response.status == .forbidden)
      #expect(
        response.json["error_description"] == .string("The signature counter did not increase (stored 1, received 1)"))
    }
  }

  @Test func assertionFailuresAreInvalidGrant() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var authenticator = VirtualAuthenticator()
      _ = try await Self.signup(client, &authenticator, email: "fail@example.com")
      var stranger = VirtualAuthenticator()
      _ = stranger.register(rpID: Self.rpID, userHandle: [9], userName: "x", challenge: "c", origin: Self.origin)
      let cases: [(String, (String) throws -> Value)] = [
        (
          "The relying party id hash does not match",
          { try authenticator.assert(rpID: "evil.test", challenge: $0, origin: Self.origin, allowCredentials: []) }
        ),
        (
          "The origin 'https://evil.test' is not allowed",
          { try authenticator.assert(rpID: Self.rpID, challenge: $0, origin: "https://evil.test") }
        ),
        (
          "The passkey is not registered.", { try stranger.assert(rpID: Self.rpID, challenge: $0, origin: Self.origin) }
        ),
      ]
      var evil = VirtualAuthenticator()
      _ = evil.register(rpID: "evil.test", userHandle: [1], userName: "x", challenge: "c", origin: Self.origin)
      for (expected, make) in cases {
        let (session, challenge) = try await Self.challenge(client)
        var response: Value
        if expected.hasPrefix("The relying party") {
          // Same credential id as the registered one, but signed for another relying party.
          response = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
          let other = try evil.assert(rpID: "evil.test", challenge: challenge, origin: Self.origin)
          var fields = response.member("response")?.objectValue ?? [:]
          fields["authenticatorData"] = other.member("response")?.member("authenticatorData")
          response = .object((response.objectValue ?? [:]).merging(["response": .object(fields)]) { $1 })
        } else {
          response = try make(challenge)
        }
        let token = try await Self.token(client, session: session, response: response)
        #expect(token.status == .forbidden, "\(expected)")
        #expect(token.json["error_description"] == .string(expected))
      }
      // A registration answered to a login challenge has the wrong type.
      let (session, challenge) = try await Self.challenge(client)
      var fresh = authenticator
      let created = fresh.register(
        rpID: Self.rpID, userHandle: [1], userName: "x", challenge: challenge, origin: Self.origin)
      let assertion = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
      var fields = assertion.member("response")?.objectValue ?? [:]
      fields["clientDataJSON"] = created.member("response")?.member("clientDataJSON")
      let mixed = Value.object((assertion.objectValue ?? [:]).merging(["response": .object(fields)]) { $1 })
      let token = try await Self.token(client, session: session, response: mixed)
      #expect(
        token.json["error_description"] == .string("clientDataJSON type is 'webauthn.create', expected 'webauthn.get'"))
    }
  }

  @Test func startEndpointsValidateTheirInput() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let cases: [(String, [String: Value], Int, String)] = [
        (
          "/passkey/register", ["client_id": .string("native-client-id")], 400,
          "Missing required parameter: user_profile"
        ),
        (
          "/passkey/register",
          [
            "client_id": .string("native-client-id"),
            "user_profile": .object(["email": .string("a@b.c"), "x": .string("1")]),
          ],
          400, "Unknown user_profile attribute: x"
        ),
        (
          "/passkey/register",
          [
            "client_id": .string("native-client-id"),
            "user_profile": .object(["email": .string("new@example.com"), "phone_number": .string("555-0100")]),
          ],
          400, "user_profile.phone_number must be in E.164 format (^\\+[0-9]{1,15}$)"
        ),
        (
          "/passkey/register",
          ["client_id": .string("native-client-id"), "user_profile": .object(["name": .string("No Email")])], 400,
          "user_profile.email is required by the connection"
        ),
        (
          "/passkey/register",
          ["client_id": .string("native-client-id"), "user_profile": .object(["email": .string("alice@example.com")])],
          400, "The user already exists."
        ),
        (
          "/passkey/challenge", ["client_id": .string("web-client-id"), "client_secret": .string("web-client-secret")],
          403,
          "Grant type 'urn:okta:params:oauth:grant-type:webauthn' not allowed for the client."
        ),
        ("/passkey/challenge", ["client_id": .string("nobody")], 401, "Unauthorized"),
        (
          "/passkey/challenge", ["client_id": .string("native-client-id"), "realm": .string("email")], 400,
          "the connection was not found"
        ),
        (
          "/passkey/challenge", ["client_id": .string("native-client-id"), "organization": .string("org_nope")], 400,
          "Organization not found: org_nope"
        ),
      ]
      for (path, body, status, description) in cases {
        let response = try await client.postJSON(path, body)
        #expect(response.status.code == status, "\(path) \(description)")
        #expect(response.json["error_description"] == .string(description))
      }
    }
  }

  @Test func organizationPasskeyLoginCarriesOrgClaims() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var authenticator = VirtualAuthenticator()
      _ = try await Self.signup(client, &authenticator, email: "org@example.com")
      let start = try await client.postJSON(
        "/passkey/challenge", ["client_id": .string("native-client-id"), "organization": .string("acme")])
      let session = try #require(start.json["auth_session"]?.stringValue)
      let challenge = try #require(start.json["authn_params_public_key"]?.member("challenge")?.stringValue)
      let assertion = try authenticator.assert(rpID: Self.rpID, challenge: challenge, origin: Self.origin)
      let token = try await Self.token(client, session: session, response: assertion)
      let claims = JWTValue(raw: token.json["id_token"]?.stringValue ?? "")?.claims ?? [:]
      #expect(claims["org_id"] == .string("org_acme123"))
      #expect(claims["org_name"] == .string("acme"))
    }
  }
}
