import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct MFAAPITests {
  static let mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
  static let mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
  static let mfaRecovery = "http://auth0.com/oauth/grant-type/mfa-recovery-code"

  /// bob's password login → the mfa_token.
  static func bobMFAToken(
    _ client: any TestClientProtocol, username: String = "bob@example.com", password: String = "Bob-Passw0rd!"
  ) async throws -> String {
    let response = try await client.postJSON(
      "/oauth/token", AttackProtectionTests.passwordRealm(username, password))
    #expect(response.status == .forbidden)
    #expect(response.json["error"] == .string("mfa_required"))
    return try #require(response.json["mfa_token"]?.stringValue)
  }

  static func grant(_ type: String, _ fields: [String: Value]) -> [String: Value] {
    var body = fields
    body["grant_type"] = .string(type)
    body["client_id"] = .string("native-client-id")
    return body
  }

  @Test func authenticatorsListsBobsFactors() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.bobMFAToken(client)
      let list = try await client.execute(
        uri: "/mfa/authenticators", method: .get, headers: [.authorization: "Bearer \(token)"])
      #expect(list.status == .ok)
      let items = try #require(try Value(json: Data(list.text.utf8)).arrayValue)
      #expect(items.compactMap { $0.objectValue?["authenticator_type"]?.stringValue } == ["otp", "recovery-code"])
      let bad = try await client.execute(
        uri: "/mfa/authenticators", method: .get, headers: [.authorization: "Bearer junk"])
      #expect(bad.json["error_description"] == .string("Malformed mfa_token"))
      #expect(try await client.execute(uri: "/mfa/authenticators", method: .get).status == .unauthorized)
    }
  }

  @Test func mfaTokenExpiresAfterTenMinutesOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.bobMFAToken(client)
      tenant.clock.advance(by: 599)
      let code = try UniversalLoginMFATests.code(tenant)
      tenant.clock.advance(by: 2)
      let expired = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaOTP, ["mfa_token": .string(token), "otp": .string(code)]))
      #expect(
        expired.json == ["error": .string("expired_token"), "error_description": .string("mfa_token is expired")])
    }
  }

  @Test func otpGrantErrorsAndSingleUseToken() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.bobMFAToken(client)
      let wrong = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaOTP, ["mfa_token": .string(token), "otp": .string("000000")]))
      #expect(wrong.json["error_description"] == .string("Invalid otp_code."))
      let code = try UniversalLoginMFATests.code(tenant)
      let ok = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaOTP, ["mfa_token": .string(token), "otp": .string(code)]))
      #expect(ok.status == .ok)
      let again = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaOTP, ["mfa_token": .string(token), "otp": .string(code)]))
      #expect(again.json["error_description"] == .string("Malformed mfa_token"))
    }
  }

  @Test func recoveryCodeIsSingleUseAndReplaced() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.bobMFAToken(client)
      let wrong = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaRecovery, ["mfa_token": .string(token), "recovery_code": .string("NOPE")]))
      #expect(wrong.json["error"] == .string("invalid_grant"))
      #expect(wrong.json["error_description"] == .string("MFA Authorization rejected."))
      let ok = try await client.postJSON(
        "/oauth/token",
        Self.grant(
          Self.mfaRecovery, ["mfa_token": .string(token), "recovery_code": .string("BOBRECOVERYCODE23456789AB")]))
      #expect(ok.status == .ok)
      let next = try #require(ok.json["recovery_code"]?.stringValue)
      #expect(next.count == 24 && next != "BOBRECOVERYCODE23456789AB")
      #expect(ok.json["access_token"] != nil)
      let second = try await Self.bobMFAToken(client)
      let reused = try await client.postJSON(
        "/oauth/token",
        Self.grant(
          Self.mfaRecovery, ["mfa_token": .string(second), "recovery_code": .string("BOBRECOVERYCODE23456789AB")]))
      #expect(reused.json["error_description"] == .string("MFA Authorization rejected."))
      let fresh = try await client.postJSON(
        "/oauth/token", Self.grant(Self.mfaRecovery, ["mfa_token": .string(second), "recovery_code": .string(next)]))
      #expect(fresh.status == .ok)
    }
  }

  @Test func challengeOTPAndUnsupportedTypes() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let token = try await Self.bobMFAToken(client)
      let otp = try await client.postJSON(
        "/mfa/challenge",
        ["client_id": .string("native-client-id"), "mfa_token": .string(token), "challenge_type": .string("otp")])
      #expect(otp.json == ["challenge_type": .string("otp")])
      let oob = try await client.postJSON(
        "/mfa/challenge",
        ["client_id": .string("native-client-id"), "mfa_token": .string(token), "challenge_type": .string("oob")])
      #expect(oob.json["error"] == .string("unsupported_challenge_type"))
      let malformed = try await client.postJSON(
        "/mfa/challenge", ["client_id": .string("native-client-id"), "mfa_token": .string("junk")])
      #expect(malformed.json["error_description"] == .string("Malformed mfa_token"))
    }
  }

  /// A user with only a recovery code must associate first.
  static func enrolTenant() throws -> MockTenant {
    try MockHarness.tenant { fixture in
      fixture.users["carol"] = UserRecord(
        profile: "carol", userID: "auth0|carol0004", email: "carol@example.com", password: "Carol-Passw0rd!",
        mfa: [MFAEnrollment(kind: .recoveryCode, secret: "CAROLRECOVERY23456789ABCD")])
    }
  }

  @Test func associationRequiredThenSMSAssociationWithBindingCodeFromTheOutbox() async throws {
    let tenant = try Self.enrolTenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
      let required = try await client.postJSON(
        "/mfa/challenge", ["client_id": .string("native-client-id"), "mfa_token": .string(token)])
      #expect(required.json["error"] == .string("association_required"))
      let associate = try await client.postJSON(
        "/mfa/associate",
        [
          "authenticator_types": .array([.string("oob")]), "oob_channels": .array([.string("sms")]),
          "phone_number": .string("+15555550199"),
        ], headers: [.authorization: "Bearer \(token)"])
      #expect(associate.status == .ok, "\(associate.text)")
      #expect(associate.json["oob_channel"] == .string("sms"))
      #expect(associate.json["binding_method"] == .string("prompt"))
      let oobCode = try #require(associate.json["oob_code"]?.stringValue)
      let outbox = try await client.execute(uri: "/__mock/outbox?to=%2B15555550199", method: .get).json
      let binding = try #require(outbox["messages"]?.arrayValue?.last?.objectValue?["code"]?.stringValue)
      let wrong = try await client.postJSON(
        "/oauth/token",
        Self.grant(
          Self.mfaOOB,
          ["mfa_token": .string(token), "oob_code": .string(oobCode), "binding_code": .string("999999x")]))
      #expect(wrong.json["error_description"] == .string("Invalid binding_code."))
      let ok = try await client.postJSON(
        "/oauth/token",
        Self.grant(
          Self.mfaOOB, ["mfa_token": .string(token), "oob_code": .string(oobCode), "binding_code": .string(binding)]))
      #expect(ok.status == .ok, "\(ok.text)")
      // Now enrolled: a new login can be challenged by SMS, and the OOB code is single use.
      let second = try await Self.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
      let challenge = try await client.postJSON(
        "/mfa/challenge",
        ["client_id": .string("native-client-id"), "mfa_token": .string(second), "challenge_type": .string("oob")])
      #expect(challenge.json["challenge_type"] == .string("oob"))
      let code2 = try #require(challenge.json["oob_code"]?.stringValue)
      let outbox2 = try await client.execute(uri: "/__mock/outbox?to=%2B15555550199", method: .get).json
      let binding2 = try #require(outbox2["messages"]?.arrayValue?.last?.objectValue?["code"]?.stringValue)
      let body = Self.grant(
        Self.mfaOOB, ["mfa_token": .string(second), "oob_code": .string(code2), "binding_code": .string(binding2)])
      #expect(try await client.postJSON("/oauth/token", body).status == .ok)
      #expect(try await client.postJSON("/oauth/token", body).status != .ok)
    }
  }

  @Test func otpAssociationReturnsSecretBarcodeAndIsConfirmedByTheFirstCode() async throws {
    let tenant = try Self.enrolTenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
      let associate = try await client.postJSON(
        "/mfa/associate", ["authenticator_types": .array([.string("otp")])],
        headers: [.authorization: "Bearer \(token)"])
      #expect(associate.json["authenticator_type"] == .string("otp"))
      let secret = try #require(associate.json["secret"]?.stringValue)
      #expect(associate.json["barcode_uri"]?.stringValue?.hasPrefix("otpauth://totp/") == true)
      let totp = try #require(TOTP(base32Secret: secret))
      let ok = try await client.postJSON(
        "/oauth/token",
        Self.grant(Self.mfaOTP, ["mfa_token": .string(token), "otp": .string(totp.code(at: tenant.clock.now()))]))
      #expect(ok.status == .ok)
    }
  }

  @Test func pushPollingPendingSlowDownAndRejection() async throws {
    let tenant = try Self.enrolTenant()
    try await MockHarness.test(tenant) { client in
      let token = try await Self.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
      let associate = try await client.postJSON(
        "/mfa/associate",
        ["authenticator_types": .array([.string("oob")]), "oob_channels": .array([.string("auth0")])],
        headers: [.authorization: "Bearer \(token)"])
      #expect(associate.json["barcode_uri"] != nil)
      let oobCode = try #require(associate.json["oob_code"]?.stringValue)
      let body = Self.grant(Self.mfaOOB, ["mfa_token": .string(token), "oob_code": .string(oobCode)])
      #expect(try await client.postJSON("/oauth/token", body).json["error"] == .string("authorization_pending"))
      #expect(try await client.postJSON("/oauth/token", body).json["error"] == .string("slow_down"))
      tenant.clock.advance(by: 6)
      #expect(try await client.postJSON("/oauth/token", body).json["error"] == .string("authorization_pending"))
      let decide = try await client.postJSON(
        "/__mock/mfa/push", ["oob_code": .string(oobCode), "approve": .bool(false)])
      #expect(decide.status == .noContent)
      tenant.clock.advance(by: 6)
      let rejected = try await client.postJSON("/oauth/token", body)
      #expect(rejected.json["error"] == .string("invalid_grant"))
      #expect(rejected.json["error_description"] == .string("MFA Authorization rejected."))
    }
  }
}
