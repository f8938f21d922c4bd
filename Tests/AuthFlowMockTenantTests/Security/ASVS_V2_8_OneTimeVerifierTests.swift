import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// ASVS V2.8 (one-time verifiers): a used MFA code cannot be replayed, and an mfa_token is bound to
/// its client.
@Suite("ASVS V2.8 – one-time verifiers")
struct ASVS_V2_8_OneTimeVerifierTests {
  @Test func aUsedCodeCannotBeReplayedWithAnotherMFAToken() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let code = try UniversalLoginMFATests.code(tenant)
      let first = try await MFAProbe.otp(client, token: try await MFAAPITests.bobMFAToken(client), code: code)
      #expect(first.status == .ok)
      let replay = try await MFAProbe.otp(client, token: try await MFAAPITests.bobMFAToken(client), code: code)
      #expect(replay.status == .forbidden)
      #expect(replay.json["error_description"] == .string("Invalid otp_code."))
    }
  }

  @Test func anMFATokenIsBoundToItsClient() async throws {
    let tenant = try MockHarness.tenant {
      $0.clients["web"]?.grantTypes.append("http://auth0.com/oauth/grant-type/mfa-otp")
    }
    try await MockHarness.test(tenant) { client in
      let token = try await MFAAPITests.bobMFAToken(client)
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string(MFAAPITests.mfaOTP), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "mfa_token": .string(token),
          "otp": .string(try UniversalLoginMFATests.code(tenant)),
        ])
      #expect(response.status == .forbidden)
      #expect(response.json["error_description"] == .string("Malformed mfa_token"))
    }
  }
}
