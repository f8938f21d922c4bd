import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Attack probes on the Universal Login pages: CSRF bound to the transaction, no reflected
/// markup from any parameter on any page, anti-framing headers, session cookie attributes, no
/// session for a blocked user, and no fixation of the session id.
@Suite struct UniversalLoginProbeTests {
  static let payload = "\"'><script>alert(1)</script><img src=x onerror=alert(2)>"

  /// The login page of a fresh transaction: its URL and fields.
  static func loginPage(
    _ browser: inout Browser, _ parameters: AuthorizeParameters = AuthorizeParameters()
  )
    async throws -> (url: String, text: String, state: String, csrf: String)
  {
    let url = try #require(try await browser.get(parameters.uri).location)
    let page = try await browser.get(url)
    return (
      url, page.text, try #require(hiddenField("state", in: page.text)),
      try #require(hiddenField("_csrf", in: page.text))
    )
  }

  @Test func anotherTransactionsCSRFTokenIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var victim = Browser(client)
      let victimPage = try await Self.loginPage(&victim)
      var attacker = Browser(client)
      let attackerPage = try await Self.loginPage(&attacker)
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

  /// Pages that show something from the request, each with the payload in every parameter it reads.
  static func reflectingURIs() -> [String] {
    let p = escape(payload)
    return [
      "/authorize?client_id=\(p)&response_type=code&redirect_uri=\(p)&state=\(p)",
      "/authorize?client_id=native-client-id&response_type=code&redirect_uri=\(p)&state=\(p)&login_hint=\(p)",
      "/u/login?state=\(p)", "/u/signup?state=\(p)", "/u/mfa-otp-challenge?state=\(p)", "/u/organization?state=\(p)",
      "/lo/reset?ticket=\(p)", "/lo/unblock?ticket=\(p)",
      "/login/callback?state=\(p)&error=\(p)&error_description=\(p)",
      "/v2/logout?returnTo=\(p)", "/v2/logout?client_id=\(p)&returnTo=\(p)",
      "/oidc/logout?post_logout_redirect_uri=\(p)&state=\(p)", "/oidc/logout?client_id=\(p)",
      "/oidc/logout?id_token_hint=\(p)", "/social/github/login/oauth/authorize?state=\(p)&login=\(p)",
    ]
  }

  @Test func noPageReflectsMarkupFromAnyParameter() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      for uri in Self.reflectingURIs() {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(!response.text.contains("<script>alert(1)"), "\(uri)")
        #expect(!response.text.contains("<img src=x"), "\(uri)")
        #expect(response.location == nil || !(response.location ?? "").contains("<"), "\(uri)")
      }
    }
  }

  @Test func hintsAndTypedValuesAreEscapedOnTheFormPages() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var signup = AuthorizeParameters()
      signup.extra = [("screen_hint", "signup"), ("login_hint", Self.payload)]
      let page = try await Self.loginPage(&browser, signup)
      #expect(page.text.contains("data-page=\"signup\""))
      #expect(!page.text.contains("<script>alert(1)"))
      #expect(page.text.contains("value=\"&quot;&#39;&gt;&lt;script&gt;"))
      // The value typed into the organization prompt comes back escaped with the error.
      var b2b = AuthorizeParameters()
      b2b.clientID = "b2b-client-id"
      b2b.redirectURI = "https://b2b.example.com/callback"
      var other = Browser(client)
      let prompt = try #require(try await other.get(b2b.uri).location)
      let form = try await other.get(prompt)
      let typed = try await other.postForm(
        prompt,
        [
          ("state", hiddenField("state", in: form.text) ?? ""), ("_csrf", hiddenField("_csrf", in: form.text) ?? ""),
          ("organization_name", Self.payload),
        ])
      #expect(typed.status == .badRequest)
      #expect(!typed.text.contains("<script>alert(1)"))
      #expect(typed.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
  }

  @Test func everyPageForbidsFramingAndCaching() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let login = try await Self.loginPage(&browser)
      var pages = [try await browser.get(login.url)]
      pages.append(try await browser.get(login.url.replacingOccurrences(of: "/u/login", with: "/u/signup")))
      pages.append(try await client.execute(uri: "/u/login?state=unknown", method: .get))
      var bob = Browser(client)
      let mfa = try await UniversalLoginMFATests.bobReachesTheMFAPage(&bob)
      pages.append(try await bob.get(mfa.url))
      for page in pages {
        #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
        #expect(page.headers[.init("Content-Security-Policy")!] == "frame-ancestors 'none'")
        #expect(page.headers[.init("X-Content-Type-Options")!] == "nosniff")
        #expect(page.headers[.cacheControl] == "no-store")
      }
    }
  }

  /// The `Set-Cookie` attributes, lowercased.
  static func attributes(_ setCookie: String?) -> Set<String> {
    Set(
      (setCookie ?? "").split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
  }

  @Test func theSessionCookieIsHttpOnlySameSiteAndSecureOnlyOverHTTPS() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await Self.loginPage(&browser)
      let login = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      let attributes = Self.attributes(login.headers[.setCookie])
      #expect(attributes.isSuperset(of: ["httponly", "path=/", "samesite=lax"]))
      #expect(!attributes.contains("secure"))
      let logout = try await browser.get("/v2/logout")
      #expect(Self.attributes(logout.headers[.setCookie]).isSuperset(of: ["httponly", "path=/", "samesite=lax"]))
    }
    let https = try MockHarness.tenant()
    https.setBaseURL("https://mock.test/")
    try await MockHarness.test(https) { client in
      var browser = Browser(client)
      let page = try await Self.loginPage(&browser)
      let login = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      #expect(Self.attributes(login.headers[.setCookie]).isSuperset(of: ["httponly", "secure", "samesite=none"]))
    }
  }

  @Test func aBlockedUserGetsNoSession() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await Self.loginPage(&browser)
      let response = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", "blocked@example.com"),
          ("password", "Blocked-Passw0rd!"),
        ])
      #expect(items(of: try #require(response.location))["error"] == "unauthorized")
      #expect(response.headers[.setCookie] == nil)
    }
  }

  @Test func aSessionIDTheAttackerChoseIsNeitherAcceptedNorKept() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      browser.cookie = "auth0=attacker-chosen-session-id"
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none")]
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["error"] == "login_required")
      browser.cookie = "auth0=attacker-chosen-session-id"
      _ = try await browser.login(email: SecurityProbe.alice.email, password: SecurityProbe.alice.password)
      let issued = try #require(browser.cookie)
      #expect(issued.hasPrefix("auth0="))
      #expect(issued != "auth0=attacker-chosen-session-id")
      // Each login gets a new id, even over an existing session.
      var again = AuthorizeParameters()
      again.extra = [("prompt", "login")]
      _ = try await browser.login(again, email: SecurityProbe.alice.email, password: SecurityProbe.alice.password)
      #expect(browser.cookie != issued)
    }
  }

  @Test func promptNoneWithASessionTooOldForMaxAgeIsLoginRequired() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: SecurityProbe.alice.email, password: SecurityProbe.alice.password)
      tenant.clock.advance(by: 120)
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none"), ("max_age", "60")]
      let response = try await browser.get(silent.uri)
      #expect(items(of: try #require(response.location))["error"] == "login_required")
      silent.extra = [("prompt", "none"), ("max_age", "600")]
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["code"] != nil)
    }
  }
}
