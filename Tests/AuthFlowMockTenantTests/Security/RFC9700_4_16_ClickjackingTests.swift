import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.16 (clickjacking) and ASVS V14.4.7: every page forbids framing (and caching).
@Suite("RFC 9700 §4.16 – clickjacking")
struct RFC9700_4_16_ClickjackingTests {
  @Test func everyPageForbidsFramingAndCaching() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let login = try await UniversalLoginProbe.loginPage(&browser)
      var pages = [try await browser.get(login.url)]
      pages.append(try await browser.get(login.url.replacingOccurrences(of: "/u/login", with: "/u/signup")))
      pages.append(try await client.execute(uri: "/u/login?state=unknown", method: .get))
      var bob = Browser(client)
      let mfa = try await UniversalLoginMFATests.bobReachesTheMFAPage(&bob)
      pages.append(try await bob.get(mfa.url))
      for page in pages {
        #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
        #expect(page.headers[.init("Content-Security-Policy")!] == "frame-ancestors 'none'")
        #expect(page.headers[.init("X-Content-Type-Options")!] == "nosniff")
        #expect(page.headers[.cacheControl] == "no-store")
      }
    }
  }
}
