import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Factors enrolled through the My Account API are MFA factors: `/mfa/authenticators`,
/// `mfa_required`, `/mfa/challenge` and the MFA grants use them; deleting the method ends that.
@Suite struct MyAccountMFATests {
  static func passwordLogin(_ client: any TestClientProtocol) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token",
      [
        "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
        "client_id": .string("native-client-id"), "username": .string("alice@example.com"),
        "password": .string("Alice-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
        "scope": .string("openid"),
      ])
  }

  /// Starts and verifies an enrollment; the started enrollment's answer.
  static func enroll(
    _ client: any TestClientProtocol, token: String, _ body: [String: Value],
    proof: (TestResponse) async throws -> String?
  ) async throws -> TestResponse {
    let started = try await client.postJSON(
      "/me/v1/authentication-methods", body, headers: MyAccountTests.bearer(token))
    #expect(started.status == .ok, "\(started.text)")
    let id = try #require(started.json["id"]?.stringValue)
    var verify: [String: Value] = ["auth_session": started.json["auth_session"] ?? .null]
    if let otp = try await proof(started) { verify["otp_code"] = .string(otp) }
    let verified = try await client.postJSON(
      "/me/v1/authentication-methods/\(FormEncoding.escape(id))/verify", verify, headers: MyAccountTests.bearer(token))
    #expect(verified.status == .ok, "\(verified.text)")
    return started
  }

  static func authenticators(_ client: any TestClientProtocol, mfaToken: String) async throws -> [Value] {
    let response = try await client.execute(
      uri: "/mfa/authenticators", method: .get, headers: [.authorization: "Bearer \(mfaToken)"], body: nil)
    #expect(response.status == .ok)
    return try #require((try? Value(json: Data(response.text.utf8)))?.arrayValue)
  }

  @Test func aTOTPEnrolledThroughMyAccountIsChallengedByTheMFAGrant() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      #expect(try await Self.passwordLogin(client).status == .ok)
      let token = try await MyAccountTests.token(client)
      let started = try await Self.enroll(client, token: token, ["type": .string("totp")]) { started in
        let secret = try #require(started.json["manual_input_code"]?.stringValue)
        return try #require(TOTP(base32Secret: secret)).code(at: tenant.clock.now())
      }
      let secret = try #require(started.json["manual_input_code"]?.stringValue)
      // My Account lists the method once, under its own id.
      let methods = try await MyAccountTests.get(client, "/me/v1/authentication-methods?type=totp", token: token)
      #expect(
        methods.json["authentication_methods"]?.arrayValue?.compactMap { $0.member("id")?.stringValue }
          == [try #require(started.json["id"]?.stringValue)])
      let required = try await Self.passwordLogin(client)
      #expect(required.status == .forbidden)
      #expect(required.json["error"] == .string("mfa_required"))
      #expect(required.json["mfa_requirements"]?.member("challenge") == .array([.object(["type": .string("otp")])]))
      let mfaToken = try #require(required.json["mfa_token"]?.stringValue)
      let listed = try await Self.authenticators(client, mfaToken: mfaToken)
      #expect(listed.contains { $0.member("authenticator_type") == .string("otp") })
      let otpGrant: (String) async throws -> TestResponse = { otp in
        try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("http://auth0.com/oauth/grant-type/mfa-otp"),
            "client_id": .string("native-client-id"), "mfa_token": .string(mfaToken), "otp": .string(otp),
          ])
      }
      let current = try #require(TOTP(base32Secret: secret)).code(at: tenant.clock.now())
      let wrong = try await otpGrant(current == "000000" ? "111111" : "000000")
      #expect(wrong.json["error_description"] == .string("Invalid otp_code."))
      tenant.clock.advance(by: 30)
      let code = try #require(TOTP(base32Secret: secret)).code(at: tenant.clock.now())
      let done = try await otpGrant(code)
      #expect(done.status == .ok, "\(done.text)")
      #expect(done.json["access_token"] != nil)
    }
  }

  @Test func aPhoneEnrolledThroughMyAccountIsAnOOBAuthenticator() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await MyAccountTests.token(client)
      _ = try await Self.enroll(
        client, token: token, ["type": .string("phone"), "phone_number": .string("+14155550123")]
      ) { _ in tenant.read({ $0.outbox.list(to: "+14155550123") }).last?.code }
      let required = try await Self.passwordLogin(client)
      let mfaToken = try #require(required.json["mfa_token"]?.stringValue)
      let listed = try await Self.authenticators(client, mfaToken: mfaToken)
      let sms = try #require(listed.first { $0.member("oob_channel") == .string("sms") })
      let challenge = try await client.postJSON(
        "/mfa/challenge",
        [
          "client_id": .string("native-client-id"), "mfa_token": .string(mfaToken),
          "challenge_type": .string("oob"), "authenticator_id": sms.member("id") ?? .null,
        ])
      #expect(challenge.json["challenge_type"] == .string("oob"))
      let oobCode = try #require(challenge.json["oob_code"])
      let binding = try #require(tenant.read({ $0.outbox.list(to: "+14155550123") }).last?.code)
      let done = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/mfa-oob"),
          "client_id": .string("native-client-id"), "mfa_token": .string(mfaToken), "oob_code": oobCode,
          "binding_code": .string(binding),
        ])
      #expect(done.status == .ok, "\(done.text)")
    }
  }

  @Test func deletingTheMethodRemovesTheFactor() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await MyAccountTests.token(client)
      let started = try await Self.enroll(
        client, token: token, ["type": .string("email"), "email": .string("alice+2fa@example.com")]
      ) { _ in tenant.read({ $0.outbox.list(to: "alice+2fa@example.com") }).last?.code }
      #expect(try await Self.passwordLogin(client).json["error"] == .string("mfa_required"))
      let id = try #require(started.json["id"]?.stringValue)
      let deleted = try await client.execute(
        uri: "/me/v1/authentication-methods/\(FormEncoding.escape(id))", method: .delete,
        headers: MyAccountTests.bearer(token), body: nil)
      #expect(deleted.status == .noContent)
      #expect(try await Self.passwordLogin(client).status == .ok)
    }
  }

  @Test func anUnverifiedEnrollmentIsNoFactor() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await MyAccountTests.token(client)
      let started = try await client.postJSON(
        "/me/v1/authentication-methods", ["type": .string("totp")], headers: MyAccountTests.bearer(token))
      #expect(started.status == .ok)
      #expect(try await Self.passwordLogin(client).status == .ok)
    }
  }
}
