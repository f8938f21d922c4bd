import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.11.2 (authorization server as open redirector): errors before the callback is trusted
/// are pages, and logout goes only to an allowed logout URL, matched exactly.
@Suite("RFC 9700 §4.11 – the authorization server is no open redirector")
struct RFC9700_4_11_OpenRedirectionTests {
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

  @Test(arguments: RedirectProbe.logoutNearMisses) func logoutReturnToMustBeAnAllowedURLExactly(
    _ returnTo: String
  ) async throws {
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

  /// A logout parameter given twice (an allowed `returnTo`, then another): the allow-list would
  /// judge one and whatever reads the other would follow it. Both logout endpoints answer the
  /// error page, redirect nowhere, and end nothing.
  @Test func aLogoutParameterGivenTwiceIsRefusedAndEndsNothing() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      let allowed = escape(MockHarness.nativeCallback)
      let evil = escape("https://evil.example.com/")
      for uri in [
        "/v2/logout?client_id=native-client-id&returnTo=\(allowed)&returnTo=\(evil)",
        "/v2/logout?returnTo=\(allowed)&client_id=native-client-id&client_id=web-client-id",
        "/oidc/logout?client_id=native-client-id&post_logout_redirect_uri=\(allowed)&post_logout_redirect_uri=\(evil)",
      ] {
        let refused = try await browser.get(uri)
        #expect(refused.status == .badRequest, "\(uri)")
        #expect(refused.location == nil, "\(uri)")
        #expect(refused.text.contains("is included more than once"), "\(uri)")
      }
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none")]
      let stillSignedIn = try #require(try await browser.get(silent.uri).location)
      #expect(items(of: stillSignedIn)["code"] != nil, "\(stillSignedIn)")
    }
  }
}
