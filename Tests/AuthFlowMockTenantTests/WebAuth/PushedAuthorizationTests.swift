import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Pushed Authorization Requests: `POST /oauth/par`, then `/authorize?client_id=…&request_uri=…`.
@Suite struct PushedAuthorizationTests {
  static func push(
    _ client: any TestClientProtocol, secret: String = "web-client-secret",
    redirectURI: String = "https://web.example.com/callback"
  ) async throws -> TestResponse {
    try await client.postForm(
      "/oauth/par",
      [
        ("client_id", "web-client-id"), ("client_secret", secret), ("response_type", "code"),
        ("redirect_uri", redirectURI), ("scope", "openid profile"), ("nonce", "par-nonce"), ("state", "par-state"),
      ])
  }

  @Test func pushedParametersDriveTheLoginOnce() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let pushed = try await Self.push(client)
      #expect(pushed.status == .created, "\(pushed.text)")
      #expect(pushed.json["expires_in"] == .int(30))
      let uri = try #require(pushed.json["request_uri"]?.stringValue)
      #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:"))

      var browser = Browser(client)
      // Query parameters besides client_id are ignored: the pushed ones apply.
      let authorize = try await browser.get(
        "/authorize?client_id=web-client-id&request_uri=\(escape(uri))&state=ignored")
      let loginURL = try #require(authorize.location)
      let page = try await browser.get(loginURL)
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let submitted = try await browser.postForm(
        loginURL,
        [("state", state), ("_csrf", csrf), ("username", "alice@example.com"), ("password", "Alice-Passw0rd!")])
      let callback = items(of: try #require(submitted.location))
      #expect(callback["state"] == "par-state")
      let code = try #require(callback["code"])
      let tokens = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "code": .string(code),
          "redirect_uri": .string("https://web.example.com/callback"),
        ])
      let idToken = try tenant.verificationKeys.verify(try #require(tokens.json["id_token"]?.stringValue))
      #expect(idToken.claims["nonce"] == .string("par-nonce"))

      // Single use.
      let again = try await client.execute(
        uri: "/authorize?client_id=web-client-id&request_uri=\(escape(uri))", method: .get)
      #expect(again.status == .badRequest)
      #expect(again.text.contains("invalid_request_uri"))
    }
  }

  @Test func requestURIExpiresAndBelongsToItsClient() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let first = try #require(try await Self.push(client).json["request_uri"]?.stringValue)
      let foreign = try await client.execute(
        uri: "/authorize?client_id=native-client-id&request_uri=\(escape(first))", method: .get)
      #expect(foreign.status == .badRequest)
      // Another client naming it did not use it up: its own client still can.
      let own = try await client.execute(
        uri: "/authorize?client_id=web-client-id&request_uri=\(escape(first))", method: .get)
      #expect(own.status == .found, "\(own.text)")
      let second = try #require(try await Self.push(client).json["request_uri"]?.stringValue)
      tenant.clock.advance(by: 31)
      let expired = try await client.execute(
        uri: "/authorize?client_id=web-client-id&request_uri=\(escape(second))", method: .get)
      #expect(expired.status == .badRequest)
      #expect(expired.text.contains("invalid_request_uri"))
    }
  }

  @Test func pushRejectsBadClientsAndCallbacks() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let wrongSecret = try await Self.push(client, secret: "wrong")
      #expect(wrongSecret.status == .unauthorized)
      #expect(wrongSecret.json["error"] == .string("access_denied"))
      let badCallback = try await Self.push(client, redirectURI: "https://evil.example/cb")
      #expect(badCallback.status == .badRequest)
      #expect(badCallback.json["error"] == .string("invalid_request"))
      let nested = try await client.postForm(
        "/oauth/par",
        [
          ("client_id", "web-client-id"), ("client_secret", "web-client-secret"), ("response_type", "code"),
          ("redirect_uri", "https://web.example.com/callback"), ("request_uri", "urn:x"),
        ])
      #expect(nested.json["error"] == .string("invalid_request"))
    }
  }
}
