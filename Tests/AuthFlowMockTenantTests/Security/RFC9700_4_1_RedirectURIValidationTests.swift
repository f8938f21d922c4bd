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

  /// RFC 6749 §3.1: a parameter MUST NOT be included more than once. The mock read the first of a
  /// repeated `redirect_uri` (or `client_id`) and sent the code there — the registered one here,
  /// but a proxy in front that reads the last would disagree about where the code goes. Where the
  /// answer may go is in doubt, so it is a page; any other parameter twice is `invalid_request`
  /// on the redirect, without a `state` when `state` was the one repeated.
  @Test(arguments: [
    ("redirect_uri", "https://evil.example/callback"), ("client_id", "web-client-id"),
    ("redirect_uri", MockHarness.nativeCallback),
  ])
  func aRepeatedRedirectParameterGetsAPage(name: String, value: String) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [(name, value)]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .badRequest)
      #expect(response.location == nil)
      #expect(response.text.contains("Parameter \(name) is included more than once."))
    }
  }

  /// Another parameter repeated first does not hide a repeated `redirect_uri`: still a page.
  @Test func aRepeatedRedirectURIAfterAnotherRepeatStillGetsAPage() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("state", "second"), ("redirect_uri", "https://evil.example/callback")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .badRequest)
      #expect(response.location == nil)
      #expect(response.text.contains("Parameter redirect_uri is included more than once."))
    }
  }

  /// A repeated `state` behind another repeat still leaves `state` out of the redirect.
  @Test func aRepeatedStateAfterAnotherRepeatIsNotEchoed() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("scope", "openid"), ("state", "second")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      let location = try #require(response.location.flatMap(URLComponents.init(string:)))
      let names = (location.queryItems ?? []).map(\.name)
      #expect(names.contains("error") && !names.contains("state"))
      #expect(
        location.queryItems?.first { $0.name == "error_description" }?.value
          == "Parameter scope is included more than once.")
    }
  }

  @Test(arguments: ["state", "scope", "response_type", "code_challenge", "nonce"])
  func anotherRepeatedParameterIsInvalidRequestOnTheRedirect(name: String) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [(name, "second")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .found)
      let location = try #require(response.location.flatMap(URLComponents.init(string:)))
      #expect(location.path == URLComponents(string: MockHarness.nativeCallback)?.path)
      let query = Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
      #expect(query["error"] == "invalid_request")
      #expect(query["error_description"] == "Parameter \(name) is included more than once.")
      #expect(query["code"] == nil)
      #expect(query["state"] == (name == "state" ? nil : "state-123"))
    }
  }

  /// A parameter without a value counts as omitted (RFC 6749 §3.1): `prompt=&prompt=login` is one prompt.
  @Test func anEmptyRepeatIsNotARepeat() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("audience", ""), ("audience", "")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .found)
      #expect(response.location?.contains("error=") == false)
    }
  }
}
