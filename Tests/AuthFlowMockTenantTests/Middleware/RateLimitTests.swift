import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct RateLimitTests {
  @Test func pastTheLimitIsTooManyRequestsUntilTheWindowResetsOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant { $0.settings.rateLimitPerMinute = 3 }
    try await MockHarness.test(tenant) { client in
      let body = AttackProtectionTests.passwordRealm("alice@example.com", "Alice-Passw0rd!")
      var remaining: [String] = []
      for _ in 0..<3 {
        let response = try await client.postJSON("/oauth/token", body)
        #expect(response.status == .ok)
        #expect(response.headers.first { $0.name.canonicalName == "x-ratelimit-limit" }?.value == "3")
        remaining.append(response.headers.first { $0.name.canonicalName == "x-ratelimit-remaining" }?.value ?? "")
      }
      #expect(remaining == ["2", "1", "0"])
      let limited = try await client.postJSON("/oauth/token", body)
      #expect(limited.status == .tooManyRequests)
      #expect(limited.json["error"] == .string("too_many_requests"))
      #expect(
        limited.json["error_description"]
          == .string(
            "Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers."))
      let reset = limited.headers.first { $0.name.canonicalName == "x-ratelimit-reset" }?.value
      #expect(reset == String(1_750_000_000 + 60))
      // Another endpoint has its own window; the Universal Login pages are not limited.
      #expect(try await client.execute(uri: "/userinfo", method: .get).status == .unauthorized)
      tenant.clock.advance(by: 61)
      #expect(try await client.postJSON("/oauth/token", body).status == .ok)
    }
  }
}
