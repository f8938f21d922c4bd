import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.1 (insufficient redirect URI validation): `redirect_uri` is compared with the client's
/// registered callbacks as exact strings; a near miss or another client's callback gets an error
/// page, never a redirect carrying a code.
@Suite("RFC 9700 §4.1 – insufficient redirect URI validation")
struct RFC9700_4_1_RedirectURIValidationTests {
  @Test(arguments: RedirectProbe.nearMisses) func nearMissRedirectURIsGetAnErrorPageNotARedirect(
    _ uri: String
  ) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.redirectURI = uri
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .badRequest)
      #expect(response.location == nil)
      #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
      #expect(response.text.contains("Callback URL mismatch"))
    }
  }

  @Test func anotherClientsCallbackIsNotAccepted() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.redirectURI = "https://web.example.com/callback"
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .badRequest && response.location == nil)
    }
  }
}
