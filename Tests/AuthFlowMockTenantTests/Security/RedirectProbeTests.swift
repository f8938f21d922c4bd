import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on where the mock sends the browser: `redirect_uri` is an exact string match and
/// an untrusted one is never redirected to; logout goes only to allowed logout URLs; response
/// modes put values only where they are safe.
@Suite struct RedirectProbeTests {
  /// Near misses of the native client's `https://app.example.com/callback`.
  static let nearMisses = [
    "https://app.example.com/callbackx", "https://app.example.com/callback/evil",
    "https://app.example.com/callback?x=1",
    "https://app.example.com/callback#x", "https://app.example.com/Callback", "https://APP.example.com/callback",
    "https://app.example.com@evil.example.com/callback", "https://evil.example.com@app.example.com/callback",
    "https://app.example.com/callback/", "https://app.example.com./callback", "https://app.example.com:443/callback",
    "http://app.example.com/callback", "https://app.example.com/x/../callback", "https://app.example.com/callback%2F",
    " https://app.example.com/callback", "https://app.example.com/callback\r\nSet-Cookie: evil=1",
    "https://app.example.com%2F@evil.example.com/callback", "//evil.example.com/callback",
  ]

  @Test(arguments: nearMisses) func nearMissRedirectURIsGetAnErrorPageNotARedirect(_ uri: String) async throws {
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

  @Test func errorsBeforeTheCallbackIsTrustedNeverRedirect() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      // Errors that would otherwise go on the redirect channel: with an unknown client or a
      // foreign callback they are pages.
      for query in [
        "client_id=nope&response_type=code&redirect_uri=https%3A%2F%2Fevil.example.com%2F&prompt=none",
        "client_id=native-client-id&response_type=bogus&redirect_uri=https%3A%2F%2Fevil.example.com%2F",
        "response_type=code&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback",
      ] {
        let response = try await client.execute(uri: "/authorize?" + query, method: .get)
        #expect(response.status == .badRequest, "\(query)")
        #expect(response.location == nil, "\(query)")
      }
    }
  }

  static let logoutNearMisses = [
    "https://app.example.com/callbackx", "https://app.example.com/callback/", "https://app.example.com/callback?x=1",
    "https://app.example.com@evil.example.com/callback", "https://APP.example.com/callback", "//evil.example.com",
    "https://web.example.com/", "https://evil.example.com/",
  ]

  @Test(arguments: logoutNearMisses) func logoutReturnToMustBeAnAllowedURLExactly(_ returnTo: String) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let withClient = try await client.execute(
        uri: "/v2/logout?client_id=native-client-id&returnTo=\(escape(returnTo))", method: .get)
      #expect(withClient.status == .badRequest && withClient.location == nil)
      // Without client_id the tenant's list applies (`https://app.example.com/`).
      let tenantWide = try await client.execute(uri: "/v2/logout?returnTo=\(escape(returnTo))", method: .get)
      #expect(tenantWide.status == .badRequest && tenantWide.location == nil)
      let oidc = try await client.execute(
        uri: "/oidc/logout?client_id=native-client-id&post_logout_redirect_uri=\(escape(returnTo))", method: .get)
      #expect(oidc.status == .badRequest && oidc.location == nil)
    }
  }

  @Test func logoutWithAnUnknownClientOrAForgedHintDoesNotRedirect() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let unknown = try await client.execute(
        uri: "/v2/logout?client_id=nope&returnTo=\(escape("https://app.example.com/"))", method: .get)
      #expect(unknown.status == .badRequest && unknown.location == nil)
      // A hint made by /__mock/sign (a tenant signature the tenant never issued) names the
      // client whose logout URLs apply: it must not be trusted.
      let minted = try await client.postJSON(
        "/__mock/sign", ["client_id": .string("web-client-id")]
      ).json["token"]?.stringValue
      let hint = try #require(minted)
      let forged = try await client.execute(
        uri: "/oidc/logout?id_token_hint=\(hint)&post_logout_redirect_uri=\(escape("https://web.example.com/"))",
        method: .get)
      #expect(forged.status == .badRequest && forged.location == nil)
    }
  }

  /// `prompt=none` without a session answers `login_required` on the redirect channel: a way to
  /// reflect `state` through each response mode.
  static func silent(
    mode: String, state: String, clientID: String = "native-client-id", type: String = "code"
  )
    -> String
  {
    var parameters = AuthorizeParameters()
    parameters.clientID = clientID
    parameters.state = state
    parameters.extra = [("prompt", "none"), ("response_mode", mode)]
    if clientID == "legacy-client-id" { parameters.redirectURI = "https://legacy.example.com/mobile" }
    return parameters.uri.replacingOccurrences(of: "response_type=code", with: "response_type=\(escape(type))")
  }

  @Test func unknownResponseModesAndTokensInTheQueryAreRefused() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let bogus = try await client.execute(uri: Self.silent(mode: "bogus", state: "s1"), method: .get)
      let bogusItems = items(of: try #require(bogus.location))
      #expect(bogusItems["error"] == "invalid_request")
      #expect(bogusItems["state"] == "s1")
      // Implicit tokens must not go in a query string (they would land in logs and Referer).
      let query = try await client.execute(
        uri: Self.silent(mode: "query", state: "s2", clientID: "legacy-client-id", type: "token"), method: .get)
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

  static let payload = "\"'></script><script>alert(1)</script><!--\u{2028}"

  @Test func formPostEscapesEveryValueAndIsNotFramable() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(uri: Self.silent(mode: "form_post", state: Self.payload), method: .get)
      #expect(response.status == .ok)
      #expect(response.location == nil)
      #expect(response.text.contains("action=\"https://app.example.com/callback\""))
      #expect(response.text.contains("name=\"error\" value=\"login_required\""))
      #expect(!response.text.contains("<script>alert(1)"))
      #expect(response.text.contains("&quot;&#39;&gt;&lt;/script&gt;&lt;script&gt;alert(1)"))
      #expect(response.headers[.init("X-Frame-Options")!] == "DENY")
      #expect(response.headers[.cacheControl] == "no-store")
    }
  }

  @Test func webMessageEscapesTheScriptContextAndPostsOnlyToTheCallbackOrigin() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(uri: Self.silent(mode: "web_message", state: Self.payload), method: .get)
      #expect(response.status == .ok)
      #expect(response.location == nil)
      let page = response.text
      #expect(!page.contains("</script><script>alert(1)"))
      #expect(!page.contains("<!--"))
      #expect(!page.contains("\u{2028}"))
      #expect(page.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"))
      #expect(page.contains("var targetOrigin = \"https://app.example.com\";"))
      #expect(!page.contains("\"*\""))
      #expect(response.headers[.init("Content-Security-Policy")!] == "frame-ancestors https://app.example.com")
    }
  }

  @Test func crlfInStateIsEncodedInTheLocation() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.execute(
        uri: Self.silent(mode: "query", state: "x\r\nSet-Cookie: evil=1"), method: .get)
      let location = try #require(response.location)
      #expect(!location.contains("\r") && !location.contains("\n"))
      #expect(location.contains("state=x%0D%0ASet-Cookie%3A%20evil%3D1"))
      #expect(response.headers[.setCookie] == nil)
    }
  }
}
