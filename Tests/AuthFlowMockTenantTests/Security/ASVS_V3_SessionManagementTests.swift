import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// ASVS V3.2 (session binding) and V3.4 (cookie-based sessions): the SSO session cookie is HttpOnly,
/// SameSite and Secure over https; a blocked user gets no session; a session id the attacker chose
/// is neither accepted nor kept (fixation); `prompt=none` honours `max_age`.
@Suite("ASVS V3.2 / V3.4 – session binding and cookies")
struct ASVS_V3_SessionManagementTests {
  @Test func theSessionCookieIsHttpOnlySameSiteAndSecureOnlyOverHTTPS() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
      let login = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      let attributes = UniversalLoginProbe.attributes(login.headers[.setCookie])
      #expect(attributes.isSuperset(of: ["httponly", "path=/", "samesite=lax"]))
      #expect(!attributes.contains("secure"))
      let logout = try await browser.get("/v2/logout")
      #expect(
        UniversalLoginProbe.attributes(logout.headers[.setCookie]).isSuperset(of: [
          "httponly", "path=/", "samesite=lax",
        ]))
    }
    let https = try MockHarness.tenant()
    https.setBaseURL("https://mock.test/")
    try await MockHarness.test(https) { client in
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
      let login = try await browser.postForm(
        page.url,
        [
          ("state", page.state), ("_csrf", page.csrf), ("username", SecurityProbe.alice.email),
          ("password", SecurityProbe.alice.password),
        ])
      #expect(
        UniversalLoginProbe.attributes(login.headers[.setCookie]).isSuperset(of: [
          "httponly", "secure", "samesite=none",
        ]))
    }
  }

  @Test func aBlockedUserGetsNoSession() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let page = try await UniversalLoginProbe.loginPage(&browser)
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
