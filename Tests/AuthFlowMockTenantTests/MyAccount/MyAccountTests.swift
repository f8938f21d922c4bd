import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// The My Account API over the router: passkey enrollment verified with a virtual
/// authenticator, the other factors, list/get/patch/delete/factors, and the security rules
/// (audience, scope, attestation, single-use and user-bound sessions).
@Suite struct MyAccountTests {
  static let audience = MockHarness.baseURL + "me/"
  static let allScopes =
    "openid create:me:authentication_methods read:me:authentication_methods update:me:authentication_methods delete:me:authentication_methods read:me:factors"

  /// A password-realm token for `email` with `audience` and `scope`.
  static func token(
    _ client: any TestClientProtocol, email: String = "alice@example.com", password: String = "Alice-Passw0rd!",
    audience: String? = audience, scope: String = allScopes
  ) async throws -> String {
    var body: [String: Value] = [
      "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
      "client_id": .string("native-client-id"), "username": .string(email), "password": .string(password),
      "realm": .string("Username-Password-Authentication"), "scope": .string(scope),
    ]
    if let audience { body["audience"] = .string(audience) }
    let response = try await client.postJSON("/oauth/token", body)
    #expect(response.status == .ok, "\(response.text)")
    return try #require(response.json["access_token"]?.stringValue)
  }

  static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

  static func get(_ client: any TestClientProtocol, _ uri: String, token: String) async throws -> TestResponse {
    try await client.execute(uri: uri, method: .get, headers: bearer(token), body: nil)
  }

  struct Enrollment {
    var authSession: String
    var location: String
    var challenge: String
    var rpID: String
    var userHandle: [UInt8]
    var userName: String
  }

  static func startPasskey(_ client: any TestClientProtocol, token: String) async throws -> Enrollment {
    let response = try await client.postJSON(
      "/me/v1/authentication-methods", ["type": .string("passkey")], headers: bearer(token))
    #expect(response.status == .ok, "\(response.text)")
    #expect(response.json["id"] == nil)
    let options = try #require(response.json["authn_params_public_key"])
    return Enrollment(
      authSession: try #require(response.json["auth_session"]?.stringValue),
      location: try #require(response.location), challenge: try #require(options.member("challenge")?.stringValue),
      rpID: try #require(options.member("rp")?.member("id")?.stringValue),
      userHandle: Array(try #require(Base64URL.decode(options.member("user")?.member("id")?.stringValue ?? ""))),
      userName: try #require(options.member("user")?.member("name")?.stringValue))
  }

  static func verifyPasskey(
    _ client: any TestClientProtocol, token: String, authSession: String, response: Value
  ) async throws -> TestResponse {
    try await client.postJSON(
      "/me/v1/authentication-methods/passkey%7Cnew/verify",
      ["auth_session": .string(authSession), "authn_response": response], headers: bearer(token))
  }

  @Test func passkeyEnrollmentThenLoginWithThePasskey() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.token(client)
      let enrollment = try await Self.startPasskey(client, token: token)
      #expect(enrollment.location == "http://mock.test/me/v1/authentication-methods/passkey%7Cnew")
      #expect(enrollment.rpID == PasskeyTests.rpID)
      #expect(enrollment.userName == "alice@example.com")
      var authenticator = VirtualAuthenticator()
      let attestation = authenticator.register(
        rpID: enrollment.rpID, userHandle: enrollment.userHandle, userName: enrollment.userName,
        challenge: enrollment.challenge, origin: PasskeyTests.origin)
      let verified = try await Self.verifyPasskey(
        client, token: token, authSession: enrollment.authSession, response: attestation)
      #expect(verified.status == .ok, "\(verified.text)")
      let method = verified.json
      let credentialID = try #require(attestation.member("id")?.stringValue)
      #expect(method["id"] == .string("passkey|" + credentialID))
      #expect(method["type"] == .string("passkey"))
      #expect(method["key_id"] == .string(credentialID))
      #expect(method["identity_user_id"] == .string("alice0001"))
      #expect(method["user_handle"] == .string(Base64URL.encode(enrollment.userHandle)))
      #expect(method["credential_device_type"] == .string("single_device"))
      #expect(method["credential_backed_up"] == .bool(false))
      #expect(method["aaguid"] == .string("00000000-0000-0000-0000-000000000000"))
      #expect(method["relying_party_id"] == .string(PasskeyTests.rpID))
      let publicKey = try #require(method["public_key"]?.stringValue)
      #expect(Data(base64Encoded: publicKey) != nil)
      #expect(method["created_at"]?.stringValue?.hasSuffix("Z") == true)

      // The enrolled passkey logs Alice in.
      let (session, challenge) = try await PasskeyTests.challenge(client)
      let assertion = try authenticator.assert(
        rpID: PasskeyTests.rpID, challenge: challenge, origin: PasskeyTests.origin)
      let login = try await PasskeyTests.token(client, session: session, response: assertion)
      #expect(login.status == .ok, "\(login.text)")
      #expect(JWTValue(raw: login.json["id_token"]?.stringValue ?? "")?.claims["sub"] == .string("auth0|alice0001"))

      // Listed, readable, renamable, deletable; deleted, it no longer logs in.
      let list = try await Self.get(client, "/me/v1/authentication-methods?type=passkey", token: token)
      #expect(list.status == .ok)
      #expect(list.json["authentication_methods"]?.arrayValue?.map { $0.member("id") } == [method["id"]])
      let encoded = "passkey%7C" + credentialID
      let renamed = try await client.execute(
        uri: "/me/v1/authentication-methods/\(encoded)", method: .patch,
        headers: Self.bearer(token).merging([.contentType: "application/json"]),
        body: ByteBuffer(string: #"{"name":"Work laptop"}"#))
      #expect(renamed.status == .ok, "\(renamed.text)")
      #expect(renamed.json["name"] == .string("Work laptop"))
      let deleted = try await client.execute(
        uri: "/me/v1/authentication-methods/\(encoded)", method: .delete, headers: Self.bearer(token), body: nil)
      #expect(deleted.status == .noContent)
      let gone = try await Self.get(client, "/me/v1/authentication-methods/\(encoded)", token: token)
      #expect(gone.status == .notFound)
      #expect(gone.json["type"] == .string("not_found"))
      let (again, againChallenge) = try await PasskeyTests.challenge(client)
      let stale = try authenticator.assert(
        rpID: PasskeyTests.rpID, challenge: againChallenge, origin: PasskeyTests.origin)
      #expect(try await PasskeyTests.token(client, session: again, response: stale).status == .forbidden)
    }
  }

  @Test func aTokenForAnotherAudienceIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for audience in [nil, "https://api.example.com"] as [String?] {
        let token = try await Self.token(client, audience: audience, scope: "openid read:messages")
        let response = try await Self.get(client, "/me/v1/authentication-methods", token: token)
        #expect(response.status == .unauthorized)
        #expect(response.json["type"] == .string("invalid_token"))
        #expect(response.json["status"] == .int(401))
        // Without an audience the token is opaque (not a JWT at all); with another API's, a JWT for it.
        let detail = audience == nil ? "Invalid token" : "Invalid token audience, expected http://mock.test/me/"
        #expect(response.json["detail"] == .string(detail))
      }
      let missing = try await client.execute(uri: "/me/v1/factors", method: .get, headers: [:], body: nil)
      #expect(missing.status == .unauthorized)
      #expect(missing.json["type"] == .string("unauthorized"))
      // A token signed by another key is not the tenant's.
      let other = try SigningKey.generateRSA(kid: MockHarness.key.kid)
      let forged = try other.sign(claims: [
        "iss": .string(MockHarness.baseURL), "aud": .string(Self.audience), "sub": .string("auth0|alice0001"),
        "scope": .string(Self.allScopes), "exp": .int(2_000_000_000),
      ])
      let rejected = try await Self.get(client, "/me/v1/authentication-methods", token: forged)
      #expect(rejected.status == .unauthorized)
      #expect(rejected.json["detail"] == .string("Invalid token"))
    }
  }

  @Test func everyOperationNeedsItsScope() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let readOnly = try await Self.token(client, scope: "openid read:me:authentication_methods")
      let enroll = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("passkey")], headers: Self.bearer(readOnly))
      #expect(enroll.status == .forbidden)
      #expect(enroll.json["type"] == .string("insufficient_scope"))
      #expect(enroll.json["detail"] == .string("Insufficient scope, expected: create:me:authentication_methods"))
      let factors = try await Self.get(client, "/me/v1/factors", token: readOnly)
      #expect(factors.status == .forbidden)
      let delete = try await client.execute(
        uri: "/me/v1/authentication-methods/password%7Calice0001", method: .delete, headers: Self.bearer(readOnly),
        body: nil)
      #expect(delete.status == .forbidden)
      #expect(try await Self.get(client, "/me/v1/authentication-methods", token: readOnly).status == .ok)
    }
  }

  @Test func theAttestationIsVerifiedAndNothingIsStoredWhenItFails() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.token(client)
      var authenticator = VirtualAuthenticator()
      let cases: [(challenge: String?, origin: String, rpID: String?, detail: String)] = [
        (nil, PasskeyTests.origin, "evil.example", "rp"),
        ("bm90LXRoZS1jaGFsbGVuZ2U", PasskeyTests.origin, nil, "challenge"),
        (nil, "https://evil.example", nil, "origin"),
      ]
      for bad in cases {
        let enrollment = try await Self.startPasskey(client, token: token)
        let attestation = authenticator.register(
          rpID: bad.rpID ?? enrollment.rpID, userHandle: enrollment.userHandle, userName: enrollment.userName,
          challenge: bad.challenge ?? enrollment.challenge, origin: bad.origin)
        let response = try await Self.verifyPasskey(
          client, token: token, authSession: enrollment.authSession, response: attestation)
        #expect(response.status == .badRequest, "\(bad.detail): \(response.text)")
        #expect(response.json["type"] == .string("invalid_authn_response"), "\(bad.detail)")
      }
      let list = try await Self.get(client, "/me/v1/authentication-methods?type=passkey", token: token)
      #expect(list.json["authentication_methods"]?.arrayValue?.isEmpty == true)
      // A mangled attestation object is a validation error, not a crash.
      let enrollment = try await Self.startPasskey(client, token: token)
      let garbage: Value = .object([
        "id": .string("AA"),
        "response": .object(["clientDataJSON": .string("AA"), "attestationObject": .string("AA")]),
      ])
      let response = try await Self.verifyPasskey(
        client, token: token, authSession: enrollment.authSession, response: garbage)
      #expect(response.status == .badRequest)
    }
  }

  @Test func theEnrollmentSessionIsSingleUseAndBoundToItsUser() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let alice = try await Self.token(client)
      let signup = try await client.postJSON(
        "/dbconnections/signup",
        DBConnectionTests.signupBody(email: "mallory@example.com", password: "Mall0ry-Passw0rd!"))
      #expect(signup.status == .ok)
      let bob = try await Self.token(client, email: "mallory@example.com", password: "Mall0ry-Passw0rd!")
      var authenticator = VirtualAuthenticator()
      // Bob can not complete Alice's enrollment (and his attempt spends it).
      let stolen = try await Self.startPasskey(client, token: alice)
      let forBob = authenticator.register(
        rpID: stolen.rpID, userHandle: stolen.userHandle, userName: stolen.userName, challenge: stolen.challenge,
        origin: PasskeyTests.origin)
      let hijack = try await Self.verifyPasskey(client, token: bob, authSession: stolen.authSession, response: forBob)
      #expect(hijack.status == .badRequest)
      #expect(hijack.json["type"] == .string("invalid_auth_session"))
      // A successful verify can not be replayed.
      let enrollment = try await Self.startPasskey(client, token: alice)
      let attestation = authenticator.register(
        rpID: enrollment.rpID, userHandle: enrollment.userHandle, userName: enrollment.userName,
        challenge: enrollment.challenge, origin: PasskeyTests.origin)
      let first = try await Self.verifyPasskey(
        client, token: alice, authSession: enrollment.authSession, response: attestation)
      #expect(first.status == .ok)
      let replay = try await Self.verifyPasskey(
        client, token: alice, authSession: enrollment.authSession, response: attestation)
      #expect(replay.status == .badRequest)
      #expect(replay.json["type"] == .string("invalid_auth_session"))
      // A failed verify spends the session too.
      let failing = try await Self.startPasskey(client, token: alice)
      let wrong = authenticator.register(
        rpID: failing.rpID, userHandle: failing.userHandle, userName: failing.userName, challenge: "AAAA",
        origin: PasskeyTests.origin)
      _ = try await Self.verifyPasskey(client, token: alice, authSession: failing.authSession, response: wrong)
      let right = authenticator.register(
        rpID: failing.rpID, userHandle: failing.userHandle, userName: failing.userName, challenge: failing.challenge,
        origin: PasskeyTests.origin)
      let late = try await Self.verifyPasskey(client, token: alice, authSession: failing.authSession, response: right)
      #expect(late.json["type"] == .string("invalid_auth_session"))
      // An enrollment session is not a passkey login session.
      let other = try await Self.startPasskey(client, token: alice)
      let grant = try await PasskeyTests.token(client, session: other.authSession, response: attestation)
      #expect(grant.status == .forbidden)
    }
  }

  @Test func totpEmailPhoneRecoveryAndPushEnrollments() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.token(client)
      let totp = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("totp")], headers: Self.bearer(token))
      #expect(totp.status == .ok)
      let id = try #require(totp.json["id"]?.stringValue)
      #expect(id.hasPrefix("totp|dev_"))
      #expect(totp.location == "http://mock.test/me/v1/authentication-methods/" + FormEncoding.escape(id))
      #expect(totp.json["manual_input_code"]?.stringValue.flatMap(Base32.decode) != nil)
      #expect(totp.json["barcode_uri"]?.stringValue?.hasPrefix("otpauth://totp/") == true)
      let wrong = try await client.postJSON(
        "/me/v1/authentication-methods/\(FormEncoding.escape(id))/verify",
        ["auth_session": totp.json["auth_session"] ?? .null, "otp_code": .string("000000")],
        headers: Self.bearer(token))
      #expect(wrong.status == .badRequest)
      #expect(wrong.json["type"] == .string("invalid_otp_code"))
      let again = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("totp")], headers: Self.bearer(token))
      let againID = try #require(again.json["id"]?.stringValue)
      let againSecret = try #require(again.json["manual_input_code"]?.stringValue)
      let code = try #require(TOTP(base32Secret: againSecret)).code(at: tenant.clock.now())
      let confirmed = try await client.postJSON(
        "/me/v1/authentication-methods/\(FormEncoding.escape(againID))/verify",
        ["auth_session": again.json["auth_session"] ?? .null, "otp_code": .string(code)], headers: Self.bearer(token))
      #expect(confirmed.status == .ok, "\(confirmed.text)")
      #expect(confirmed.json["confirmed"] == .bool(true))
      #expect(confirmed.json["type"] == .string("totp"))

      let email = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("email"), "email": .string("alice+mfa@example.com")],
        headers: Self.bearer(token))
      #expect(email.status == .ok)
      let sent = try #require(tenant.read({ $0.outbox.list(to: "alice+mfa@example.com") }).last?.code)
      let emailID = try #require(email.json["id"]?.stringValue)
      let emailOK = try await client.postJSON(
        "/me/v1/authentication-methods/\(FormEncoding.escape(emailID))/verify",
        ["auth_session": email.json["auth_session"] ?? .null, "otp_code": .string(sent)], headers: Self.bearer(token))
      #expect(emailOK.json["email"] == .string("alice+mfa@example.com"))

      let badPhone = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("phone"), "phone_number": .string("555")],
        headers: Self.bearer(token))
      #expect(badPhone.status == .badRequest)
      #expect(badPhone.json["validation_errors"]?.arrayValue?.first?.member("pointer") == .string("/phone_number"))

      let recovery = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("recovery-code")], headers: Self.bearer(token))
      #expect(recovery.json["recovery_code"]?.stringValue?.count == 24)
      let recoveryID = try #require(recovery.json["id"]?.stringValue)
      let recoveryOK = try await client.postJSON(
        "/me/v1/authentication-methods/\(FormEncoding.escape(recoveryID))/verify",
        ["auth_session": recovery.json["auth_session"] ?? .null], headers: Self.bearer(token))
      #expect(recoveryOK.status == .ok)
      #expect(recoveryOK.json["recovery_code"] == nil)

      let unknown = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("carrier-pigeon")], headers: Self.bearer(token))
      #expect(unknown.status == .badRequest)
      #expect(unknown.json["validation_errors"]?.arrayValue?.first?.member("field") == .string("type"))

      let list = try await Self.get(client, "/me/v1/authentication-methods", token: token)
      let types = list.json["authentication_methods"]?.arrayValue?.compactMap { $0.member("type")?.stringValue }
      #expect(types?.first == "password")
      #expect(Set(types ?? []) == ["password", "totp", "email", "recovery-code"])
      let factors = try await Self.get(client, "/me/v1/factors", token: token)
      let totpFactor = factors.json["factors"]?.arrayValue?.first { $0.member("type") == .string("totp") }
      #expect(totpFactor?.member("enrolled") == .bool(true))
    }
  }

  @Test func passwordEnrollmentAppliesStrengthDictionaryAndHistory() async throws {
    let tenant = try MockHarness.tenant {
      $0.settings.passwordDictionary = true
      $0.settings.passwordHistorySize = 2
      $0.settings.passwordNoPersonalInfo = false  // Alice's passwords contain "alice"
    }
    try await MockHarness.test(tenant) { client in
      let token = try await Self.token(client)
      func attempt(_ password: String) async throws -> TestResponse {
        let start = try await client.postJSON(
          "/me/v1/authentication-methods",
          ["type": .string("password"), "identity_user_id": .string("alice0001")], headers: Self.bearer(token))
        #expect(start.json["id"] == .string("password|alice0001"))
        #expect(start.json["policy"]?.member("history")?.member("size") == .int(2))
        return try await client.postJSON(
          "/me/v1/authentication-methods/password%7Calice0001/verify",
          ["auth_session": start.json["auth_session"] ?? .null, "new_password": .string(password)],
          headers: Self.bearer(token))
      }
      #expect(try await attempt("weak").json["type"] == .string("password_strength_error"))
      let common = try await attempt("Password123!")
      #expect(common.json["type"] == .string("password_dictionary_error"))
      #expect(common.json["detail"] == .string("Password is too common."))
      let current = try await attempt("Alice-Passw0rd!")
      #expect(current.json["type"] == .string("password_history_error"))
      #expect(current.json["detail"] == .string("Password has previously been used."))
      #expect(try await attempt("Alice-N3w-Passw0rd!").status == .ok)
      // The old password is still in the history of two.
      #expect(try await attempt("Alice-Passw0rd!").json["type"] == .string("password_history_error"))
      #expect(try await attempt("Alice-Th1rd-Passw0rd!").status == .ok)
      #expect(try await attempt("Alice-Passw0rd!").status == .ok)
      // Someone else's identity is refused.
      let other = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("password"), "identity_user_id": .string("bob0002")],
        headers: Self.bearer(token))
      #expect(other.status == .badRequest)
    }
  }
}

extension HTTPFields {
  func merging(_ other: HTTPFields) -> HTTPFields {
    var merged = self
    for field in other { merged[field.name] = field.value }
    return merged
  }
}
