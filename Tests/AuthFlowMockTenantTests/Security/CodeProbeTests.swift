import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on authorization codes: bound to their client, redirect_uri and PKCE verifier;
/// a replayed code revokes what it issued; a public client cannot skip PKCE.
@Suite struct CodeProbeTests {
  static let verifier = AuthorizeParameters().verifier

  @Test func aReplayedCodeRevokesTheRefreshTokenItIssued() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      let first = try await client.exchange(code: code, verifier: Self.verifier)
      let refresh = try #require(first.json["refresh_token"]?.stringValue)
      let replay = try await client.exchange(code: code, verifier: Self.verifier)
      #expect(replay.status == .forbidden)
      #expect(replay.json["error_description"] == .string("Invalid authorization code"))
      let renewed = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"),
          "refresh_token": .string(refresh),
        ])
      #expect(renewed.status == .forbidden)
      #expect(renewed.json["error_description"] == .string("Unknown or invalid refresh token."))
    }
  }

  @Test func aCodeIsBoundToItsClient() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      // The confidential web client, correctly authenticated, presents the native client's code.
      let stolen = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "code": .string(code),
          "code_verifier": .string(Self.verifier), "redirect_uri": .string(MockHarness.nativeCallback),
        ])
      #expect(stolen.status == .forbidden)
      #expect(stolen.json["error_description"] == .string("Invalid authorization code"))
    }
  }

  @Test func theExchangeMustRepeatTheRedirectURI() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      let omitted = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("native-client-id"),
          "code": .string(code), "code_verifier": .string(Self.verifier),
        ])
      #expect(omitted.status == .badRequest)
      #expect(omitted.json["error_description"] == .string("Missing required parameter: redirect_uri"))
      // The code survives a request that was refused before it was looked at.
      let exchanged = try await client.exchange(code: code, verifier: Self.verifier)
      #expect(exchanged.status == .ok)
    }
  }

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
          "code_verifier": .string(Self.verifier), "redirect_uri": .string("https://web.example.com/callback"),
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
