import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// ASVS V2.2.1 (anti-automation, docs/protocol.md §9 brute-force protection): forwarding headers do not give
/// an attacker a fresh IP, the block holds on every login path, and MFA guesses draw from one
/// bucket per user whatever the mfa_token or transaction.
@Suite("ASVS V2.2.1 – anti-automation: brute force and guess buckets")
struct ASVS_V2_2_AntiAutomationTests {
  @Test func rotatingForwardingHeadersDoesNotEscapeTheBlock() async throws {
    try await MockHarness.test(try BruteForceProbe.limited()) { client in
      for attempt in 0..<3 {
        let spoofed: HTTPFields = [
          .init("auth0-forwarded-for")!: "203.0.113.\(attempt)", .init("X-Forwarded-For")!: "198.51.100.\(attempt)",
        ]
        _ = try await client.postJSON(
          "/oauth/token", AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, "nope"), headers: spoofed)
      }
      let fresh: HTTPFields = [.init("auth0-forwarded-for")!: "192.0.2.99", .init("X-Forwarded-For")!: "192.0.2.98"]
      let blocked = try await client.postJSON(
        "/oauth/token",
        AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, SecurityProbe.alice.password), headers: fresh)
      #expect(blocked.status == .tooManyRequests)
      #expect(blocked.json["error"] == .string("too_many_attempts"))
    }
  }

  @Test func theBlockFromTheTokenEndpointHoldsOnTheLoginPageAndForThePasswordGrant() async throws {
    let tenant = try MockHarness.tenant {
      $0.settings.bruteForceLimit = 3
      $0.clients["native"]?.grantTypes.append("password")
    }
    try await MockHarness.test(tenant) { client in
      for _ in 0..<3 {
        _ = try await client.postJSON(
          "/oauth/token", AttackProtectionTests.passwordRealm(SecurityProbe.alice.email.uppercased(), "nope"))
      }
      // The `password` grant (no realm) and a different case of the same email.
      let password = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("password"), "client_id": .string("native-client-id"),
          "username": .string(SecurityProbe.alice.email), "password": .string(SecurityProbe.alice.password),
        ])
      #expect(password.status == .tooManyRequests)
      // The Universal Login form, with the right password.
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
      let form = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      #expect(form.status == .tooManyRequests)
      #expect(form.location == nil)
      #expect(browser.cookie == nil)
    }
  }

  @Test func aBlockedUserIsRefusedOnEveryDirectLoginPath() async throws {
    let tenant = try MockHarness.tenant { $0.clients["native"]?.grantTypes.append("password") }
    try await MockHarness.test(tenant) { client in
      for grant in ["password", "http://auth0.com/oauth/grant-type/password-realm"] {
        var body = AttackProtectionTests.passwordRealm("blocked@example.com", "Blocked-Passw0rd!")
        body["grant_type"] = .string(grant)
        let response = try await client.postJSON("/oauth/token", body)
        #expect(response.status == .unauthorized, "\(grant)")
        #expect(response.json["error_description"] == .string("user is blocked"), "\(grant)")
      }
    }
  }

  @Test func guessesDrawFromOneBucketPerUserAcrossMFATokens() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let wrong = try MFAProbe.wrongCode(tenant)
      for attempt in 0..<10 {
        // A new password login (a new mfa_token) every other guess.
        let token = try await MFAAPITests.bobMFAToken(client)
        let response = try await MFAProbe.otp(client, token: token, code: wrong)
        #expect(response.json["error_description"] == .string("Invalid otp_code."), "attempt \(attempt)")
      }
      let token = try await MFAAPITests.bobMFAToken(client)
      let right = try await MFAProbe.otp(client, token: token, code: try UniversalLoginMFATests.code(tenant))
      #expect(right.status == .tooManyRequests)
      #expect(right.json["error"] == .string("too_many_attempts"))
      #expect(right.json["access_token"] == nil)
      // One attempt comes back every six minutes.
      tenant.clock.advance(by: 360)
      let later = try await MFAAPITests.bobMFAToken(client)
      let accepted = try await MFAProbe.otp(client, token: later, code: try UniversalLoginMFATests.code(tenant))
      #expect(accepted.status == .ok)
    }
  }

  @Test func universalLoginGuessesShareTheBucketAcrossTransactions() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let wrong = try MFAProbe.wrongCode(tenant)
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
