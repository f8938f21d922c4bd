import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.8 (PKCE downgrade) and RFC 7636 §4.1 / §4.6: a verifier without a challenge is refused,
/// a public client cannot skip PKCE, malformed verifiers never match.
@Suite("RFC 9700 §4.8 – PKCE downgrade")
struct RFC9700_4_8_PKCEDowngradeTests {
  @Test func aVerifierWithoutAChallengeIsADowngradeAndRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      // The confidential web client skips PKCE at /authorize (allowed: it has a secret)…
      let uri =
        "/authorize?client_id=web-client-id&response_type=code&state=s&redirect_uri="
        + escape("https://web.example.com/callback")
      let callback = try await SecurityProbe.callback(&browser, uri: uri)
      let code = try #require(items(of: callback)["code"])
      // …then a verifier appears at the exchange: refused (RFC 9700 §4.8.2).
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "code": .string(code),
          "code_verifier": .string(CodeProbe.verifier), "redirect_uri": .string("https://web.example.com/callback"),
        ])
      #expect(response.status == .forbidden)
      #expect(response.json["error_description"] == .string("Failed to verify code verifier"))
    }
  }

  @Test func aConfidentialClientMayExchangeWithoutPKCE() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let uri =
        "/authorize?client_id=web-client-id&response_type=code&state=s&redirect_uri="
        + escape("https://web.example.com/callback")
      let callback = try await SecurityProbe.callback(&browser, uri: uri)
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "code": .string(try #require(items(of: callback)["code"])),
          "redirect_uri": .string("https://web.example.com/callback"),
        ])
      #expect(response.status == .ok)
    }
  }

  @Test func aPublicClientWithoutPKCEIsUnauthorized() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let uri =
        "/authorize?client_id=native-client-id&response_type=code&state=s&redirect_uri="
        + escape(MockHarness.nativeCallback)
      let callback = try await SecurityProbe.callback(&browser, uri: uri)
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("native-client-id"),
          "code": .string(try #require(items(of: callback)["code"])),
          "redirect_uri": .string(MockHarness.nativeCallback),
        ])
      #expect(response.status == .unauthorized)
      #expect(response.json["error"] == .string("access_denied"))
      #expect(response.json["error_description"] == .string("Unauthorized"))
      #expect(response.json["access_token"] == nil)
    }
  }

  /// RFC 7636 §4.1: 43–128 unreserved characters. A `plain` challenge of a short or odd verifier
  /// is accepted at /authorize, but no such verifier passes the exchange.
  @Test(arguments: [
    "short", String(repeating: "a", count: 42), String(repeating: "a", count: 129),
    String(repeating: "a", count: 42) + "+",
  ])
  func malformedVerifiersAreRefusedEvenWhenTheyMatchAPlainChallenge(_ verifier: String) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let uri =
        "/authorize?client_id=native-client-id&response_type=code&state=s&code_challenge_method=plain"
        + "&code_challenge=\(escape(verifier))&redirect_uri=\(escape(MockHarness.nativeCallback))"
      let callback = try await SecurityProbe.callback(&browser, uri: uri)
      let response = try await client.exchange(code: try #require(items(of: callback)["code"]), verifier: verifier)
      #expect(response.status == .forbidden)
      #expect(response.json["error_description"] == .string("Failed to verify code verifier"))
    }
  }

  @Test func aWellFormedPlainVerifierStillWorks() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let verifier = String(repeating: "a", count: 43)
      let uri =
        "/authorize?client_id=native-client-id&response_type=code&state=s&code_challenge_method=plain"
        + "&code_challenge=\(verifier)&redirect_uri=\(escape(MockHarness.nativeCallback))"
      let callback = try await SecurityProbe.callback(&browser, uri: uri)
      let response = try await client.exchange(code: try #require(items(of: callback)["code"]), verifier: verifier)
      #expect(response.status == .ok)
    }
  }
}
