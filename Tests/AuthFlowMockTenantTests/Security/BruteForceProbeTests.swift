import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on brute-force protection: forwarding headers a public client (or a browser)
/// sets do not give an attacker a fresh IP, and the block holds on every login path.
@Suite struct BruteForceProbeTests {
  static func limited() throws -> MockTenant { try MockHarness.tenant { $0.settings.bruteForceLimit = 3 } }

  @Test func rotatingForwardingHeadersDoesNotEscapeTheBlock() async throws {
    try await MockHarness.test(try Self.limited()) { client in
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
      let page = try await UniversalLoginProbeTests.loginPage(&browser)
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
}
