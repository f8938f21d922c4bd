import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.5 (authorization code injection) and RFC 6749 §4.1.2 / §4.1.3: a code is bound to its
/// client and `redirect_uri`, is single use, and a replayed code revokes what it issued.
@Suite("RFC 9700 §4.5 – authorization code injection and replay")
struct RFC9700_4_5_AuthorizationCodeInjectionTests {
  @Test func aReplayedCodeRevokesTheRefreshTokenItIssued() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await SecurityProbe.code(&browser)
      let first = try await client.exchange(code: code, verifier: CodeProbe.verifier)
      let refresh = try #require(first.json["refresh_token"]?.stringValue)
      let replay = try await client.exchange(code: code, verifier: CodeProbe.verifier)
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
          "code_verifier": .string(CodeProbe.verifier), "redirect_uri": .string(MockHarness.nativeCallback),
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
          "code": .string(code), "code_verifier": .string(CodeProbe.verifier),
        ])
      #expect(omitted.status == .badRequest)
      #expect(omitted.json["error_description"] == .string("Missing required parameter: redirect_uri"))
      // The code survives a request that was refused before it was looked at.
      let exchanged = try await client.exchange(code: code, verifier: CodeProbe.verifier)
      #expect(exchanged.status == .ok)
    }
  }
}
