import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// ASVS V8.2.1 and RFC 6749 §5.1: token responses and token errors carry `Cache-Control: no-store`.
@Suite("ASVS V8.2.1 – token responses are never cached")
struct ASVS_V8_2_ClientSideDataProtectionTests {
  @Test func tokenResponsesAndErrorsAreNeverCached() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var body = AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, SecurityProbe.alice.password)
      let ok = try await client.postJSON("/oauth/token", body)
      body["password"] = .string("wrong")
      let failed = try await client.postJSON("/oauth/token", body)
      for response in [ok, failed] {
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.headers[.init("Pragma")!] == "no-cache")
      }
    }
  }
}
