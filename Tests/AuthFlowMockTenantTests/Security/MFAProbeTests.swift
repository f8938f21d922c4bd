import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on MFA codes: per-user attempt bucket (not per mfa_token or per login
/// transaction, so a fresh login buys no new guesses), no replay of a used code, and the
/// mfa_token bound to its client.
@Suite struct MFAProbeTests {
  static func otp(_ client: any TestClientProtocol, token: String, code: String) async throws -> TestResponse {
    try await client.postJSON(
      "/oauth/token", MFAAPITests.grant(MFAAPITests.mfaOTP, ["mfa_token": .string(token), "otp": .string(code)]))
  }

  /// A six-digit code that is not bob's current one.
  static func wrongCode(_ tenant: MockTenant) throws -> String {
    try UniversalLoginMFATests.code(tenant) == "000000" ? "111111" : "000000"
  }

  @Test func guessesDrawFromOneBucketPerUserAcrossMFATokens() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let wrong = try Self.wrongCode(tenant)
      for attempt in 0..<10 {
        // A new password login (a new mfa_token) every other guess.
        let token = try await MFAAPITests.bobMFAToken(client)
        let response = try await Self.otp(client, token: token, code: wrong)
        #expect(response.json["error_description"] == .string("Invalid otp_code."), "attempt \(attempt)")
      }
      let token = try await MFAAPITests.bobMFAToken(client)
      let right = try await Self.otp(client, token: token, code: try UniversalLoginMFATests.code(tenant))
      #expect(right.status == .tooManyRequests)
      #expect(right.json["error"] == .string("too_many_attempts"))
      #expect(right.json["access_token"] == nil)
      // One attempt comes back every six minutes.
      tenant.clock.advance(by: 360)
      let later = try await MFAAPITests.bobMFAToken(client)
      let accepted = try await Self.otp(client, token: later, code: try UniversalLoginMFATests.code(tenant))
      #expect(accepted.status == .ok)
    }
  }

  @Test func aUsedCodeCannotBeReplayedWithAnotherMFAToken() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let code = try UniversalLoginMFATests.code(tenant)
      let first = try await Self.otp(client, token: try await MFAAPITests.bobMFAToken(client), code: code)
      #expect(first.status == .ok)
      let replay = try await Self.otp(client, token: try await MFAAPITests.bobMFAToken(client), code: code)
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

  @Test func universalLoginGuessesShareTheBucketAcrossTransactions() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let wrong = try Self.wrongCode(tenant)
      // Two transactions of four wrong codes each (under the per-transaction limit of five)…
      for _ in 0..<2 {
        var browser = Browser(client)
        let page = try await UniversalLoginMFATests.bobReachesTheMFAPage(&browser)
        for _ in 0..<4 {
          let response = try await browser.postForm(
            page.url, [("state", page.state), ("_csrf", page.csrf), ("code", wrong)])
          #expect(response.status == .badRequest)
        }
      }
      // …then two more in a third: the user's bucket of ten is empty, even for the right code.
      var browser = Browser(client)
      let page = try await UniversalLoginMFATests.bobReachesTheMFAPage(&browser)
      for _ in 0..<2 {
        _ = try await browser.postForm(page.url, [("state", page.state), ("_csrf", page.csrf), ("code", wrong)])
      }
      var fresh = Browser(client)
      let last = try await UniversalLoginMFATests.bobReachesTheMFAPage(&fresh)
      let right = try await fresh.postForm(
        last.url, [("state", last.state), ("_csrf", last.csrf), ("code", try UniversalLoginMFATests.code(tenant))])
      #expect(right.status == .tooManyRequests)
      #expect(right.location == nil)
      #expect(fresh.cookie == nil)
    }
  }
}
