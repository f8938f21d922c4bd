import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// RFC 9700 §4.7 (cross-site request forgery) and ASVS V4.2.2 (anti-CSRF): a Universal Login
/// transaction is bound to the browser that began it by its transaction cookie; its forms refuse a
/// post from another cookie jar, another site or another transaction, and the social provider's
/// return to `/login/callback` is refused in another browser.
@Suite("RFC 9700 §4.7 / ASVS V4.2.2 – login CSRF: the transaction is bound to its browser")
struct RFC9700_4_7_CSRFTests {
  @Test func anotherTransactionsCSRFTokenIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var victim = Browser(client)
      let victimPage = try await UniversalLoginProbe.loginPage(&victim)
      var attacker = Browser(client)
      let attackerPage = try await UniversalLoginProbe.loginPage(&attacker)
      let swapped = try await victim.postForm(
        victimPage.url,
        [
          ("state", victimPage.state), ("_csrf", attackerPage.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      #expect(swapped.status == .forbidden)
      #expect(swapped.location == nil)
      #expect(victim.cookie == nil)
    }
  }

  @Test func aFormPostedFromAnotherCookieJarIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      // The attacker begins a login and has the victim's browser post its form (state and _csrf
      // are in the page, which the attacker can read).
      var attacker = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&attacker)
      var victim = Browser(client)
      let forged = try await victim.postForm(page.url, LoginCSRFProbe.credentials(page))
      #expect(forged.status == .forbidden, "\(forged.text)")
      #expect(forged.location == nil)
      #expect(forged.text.contains("Invalid state"))
      #expect(victim.cookie == nil, "the victim must get no session")
      // The transaction is untouched: its own browser still completes it.
      let own = try await attacker.postForm(page.url, LoginCSRFProbe.credentials(page))
      #expect(own.status == .found, "\(own.text)")
      #expect(attacker.cookie != nil)
    }
  }

  @Test func aFormPostedWithoutTheTransactionCookieIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
      let name = TransactionBinding.cookieName(page.state)
      #expect(browser.jar[name] != nil, "/authorize sets the transaction cookie")
      browser.jar[name] = "not-the-binding"
      let wrong = try await browser.postForm(page.url, LoginCSRFProbe.credentials(page))
      #expect(wrong.status == .forbidden)
      browser.jar[name] = nil
      let missing = try await browser.postForm(page.url, LoginCSRFProbe.credentials(page))
      #expect(missing.status == .forbidden)
      #expect(browser.cookie == nil)
    }
  }

  @Test(arguments: ["https://evil.example", "null", "http://mock.test.evil.example", "http://localhost:1"])
  func aFormPostedFromAForeignOriginIsRejected(origin: String) async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
      let forged = try await browser.postForm(page.url, LoginCSRFProbe.credentials(page), headers: [.origin: origin])
      #expect(forged.status == .forbidden, "\(origin): \(forged.text)")
      #expect(forged.location == nil)
      #expect(browser.cookie == nil, "no session from a cross-site post")
      // The tenant's own origin is accepted.
      let own = try await browser.postForm(
        page.url, LoginCSRFProbe.credentials(page), headers: [.origin: "http://mock.test"])
      #expect(own.status == .found, "\(own.text)")
      #expect(browser.cookie != nil)
    }
  }

  /// The social variant: the attacker signs in at the provider with their own account and sends
  /// the provider's redirect (`/login/callback?code=…&state=…`) to the victim; opened in the
  /// victim's browser it must not finish the attacker's transaction there.
  @Test func aSocialCallbackOpenedInAnotherBrowserIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var attacker = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("connection", "github")]
      let (_, _, state) = try await SocialLoginTests.consent(&attacker, parameters)
      let decided = try await attacker.postForm(
        "/social/github/login/oauth/authorize", [("state", state), ("account", "583231"), ("authorize", "accept")])
      let providerCallback = try #require(decided.location)
      let path = String(providerCallback.dropFirst("http://mock.test".count))
      #expect(path.hasPrefix(TransactionBinding.socialCallbackPath + "?"))

      var victim = Browser(client)
      let forged = try await victim.get(path)
      #expect(forged.status == .forbidden, "\(forged.text)")
      #expect(forged.location == nil, "no redirect to the application with the attacker's code")
      #expect(forged.text.contains("Invalid state"))
      #expect(victim.cookie == nil, "the victim must get no session")

      // Without its cookie the attacker's own browser is refused too; with it, the login finishes.
      let name = try #require(attacker.jar.keys.first { $0.hasPrefix(TransactionBinding.cookiePrefix) })
      let saved = attacker.jar[name]
      attacker.jar[name] = nil
      let cookieless = try await attacker.get(path)
      #expect(cookieless.status == .forbidden)
      attacker.jar[name] = saved
      let own = try await attacker.get(path)
      #expect(own.status == .found, "\(own.text)")
      #expect(own.location?.hasPrefix(MockHarness.nativeCallback) == true)
      #expect(attacker.cookie != nil)
    }
  }

  @Test func theSocialRedirectBindsTheCallbackPath() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("connection", "github")]
      let authorize = try await client.execute(uri: parameters.uri, method: .get)
      let cookies = authorize.headers[values: .setCookie].filter { $0.hasPrefix(TransactionBinding.cookiePrefix) }
      let callbackCookie = try #require(cookies.first { $0.lowercased().contains("path=/login/callback") })
      #expect(callbackCookie.lowercased().contains("httponly"))
      #expect(callbackCookie.lowercased().contains("samesite=lax"))
    }
  }

  @Test func theTransactionCookieIsHttpOnlyAndLax() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let authorize = try await client.execute(uri: AuthorizeParameters().uri, method: .get)
      let cookies = authorize.headers[values: .setCookie].filter { $0.hasPrefix(TransactionBinding.cookiePrefix) }
      let cookie = try #require(cookies.first).lowercased()
      #expect(cookie.contains("httponly"))
      #expect(cookie.contains("samesite=lax"))
      #expect(cookie.contains("path=/u/"))
    }
  }
}
