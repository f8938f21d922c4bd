import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.3 (credential leakage via browser history) and RFC 9700 §2.1.2: tokens never travel in a query
/// string, an unknown response mode is refused, `web_message` needs an origin.
@Suite("RFC 9700 §4.3 / §2.1.2 – no tokens in query strings")
struct RFC9700_4_3_CredentialLeakageViaURLTests {
  @Test func unknownResponseModesAndTokensInTheQueryAreRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let bogus = try await client.execute(uri: RedirectProbe.silent(mode: "bogus", state: "s1"), method: .get)
      let bogusItems = items(of: try #require(bogus.location))
      #expect(bogusItems["error"] == "invalid_request")
      #expect(bogusItems["state"] == "s1")
      // Implicit tokens must not go in a query string (they would land in logs and Referer).
      let query = try await client.execute(
        uri: RedirectProbe.silent(mode: "query", state: "s2", clientID: "legacy-client-id", type: "token"), method: .get
      )
      let location = try #require(query.location)
      #expect(location.hasPrefix("https://legacy.example.com/mobile#"))
      #expect(items(of: location)["error"] == "invalid_request")
      // web_message needs an origin to post to.
      var custom = AuthorizeParameters()
      custom.redirectURI = "com.example.app://127.0.0.1/ios/com.example.app/callback"
      custom.extra = [("response_mode", "web_message")]
      let noOrigin = try await client.execute(uri: custom.uri, method: .get)
      #expect(items(of: try #require(noOrigin.location))["error"] == "invalid_request")
    }
  }
}
