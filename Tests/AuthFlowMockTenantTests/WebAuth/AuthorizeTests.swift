import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct AuthorizeTests {
  @Test func redirectURIMismatchRendersAnErrorPageAndDoesNotRedirect() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.redirectURI = "https://evil.example.com/callback"
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .badRequest)
      #expect(response.location == nil)
      #expect(response.text.contains("id=\"error-message\""))
      #expect(response.text.contains("Callback URL mismatch."))
    }
  }

  @Test func unknownClientAndMissingRedirectAreErrorPages() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.clientID = "nope"
      let unknown = try await client.execute(uri: parameters.uri, method: .get)
      #expect(unknown.status == .badRequest && unknown.location == nil)
      let missing = try await client.execute(
        uri: "/authorize?client_id=native-client-id&response_type=code", method: .get)
      #expect(missing.status == .badRequest)
      #expect(missing.text.contains("Missing required parameter: redirect_uri"))
      let nothing = try await client.execute(uri: "/authorize", method: .get)
      #expect(nothing.status == .badRequest)
    }
  }

  @Test func promptNoneWithoutSessionRedirectsLoginRequired() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("prompt", "none")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      #expect(response.status == .found)
      let location = try #require(response.location)
      #expect(location.hasPrefix(MockHarness.nativeCallback + "?"))
      let query = items(of: location)
      #expect(query["error"] == "login_required")
      #expect(query["error_description"] == "Login required")
      #expect(query["state"] == "state-123")
    }
  }

  @Test func errorsGoOnTheRedirectChannelOnceTheCallbackIsTrusted() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var parameters = AuthorizeParameters()
      parameters.extra = [("audience", "https://unknown.example.com")]
      let response = try await client.execute(uri: parameters.uri, method: .get)
      let query = items(of: try #require(response.location))
      #expect(query["error"] == "access_denied")
      #expect(query["error_description"] == "Service not found: https://unknown.example.com")
      #expect(query["state"] == "state-123")
    }
  }

  @Test func grantNotAllowedAtAuthorize() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let uri =
        "/authorize?client_id=native-client-id&response_type=token&redirect_uri=\(escape(MockHarness.nativeCallback))&state=s"
      let response = try await client.execute(uri: uri, method: .get)
      let query = items(of: try #require(response.location))
      #expect(query["error"] == "unauthorized_client")
      #expect(query["error_description"] == "Grant type 'implicit' not allowed for the client.")
    }
  }

  @Test func loginSetsASessionThatLaterAuthorizeRequestsUse() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let callback = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      #expect(callback.hasPrefix(MockHarness.nativeCallback + "?"))
      #expect(items(of: callback)["code"] != nil)
      #expect(items(of: callback)["state"] == "state-123")
      #expect(browser.cookie?.hasPrefix("auth0=") == true)

      // Existing session: no extra parameters → straight to the callback.
      let again = try await browser.get(AuthorizeParameters().uri)
      #expect(items(of: try #require(again.location))["code"] != nil)
      // screen_hint=signup with a session → callback too.
      var signup = AuthorizeParameters()
      signup.extra = [("screen_hint", "signup")]
      #expect(items(of: try #require(try await browser.get(signup.uri).location))["code"] != nil)
      // prompt=login → the login page even with a session.
      var forced = AuthorizeParameters()
      forced.extra = [("prompt", "login")]
      #expect(try await browser.get(forced.uri).location?.hasPrefix("/u/login?") == true)
      // prompt=login + screen_hint=signup → signup page.
      forced.extra.append(("screen_hint", "signup"))
      #expect(try await browser.get(forced.uri).location?.hasPrefix("/u/signup?") == true)
      // prompt=none with a session → code.
      var silent = AuthorizeParameters()
      silent.extra = [("prompt", "none")]
      #expect(items(of: try #require(try await browser.get(silent.uri).location))["code"] != nil)
    }
  }

  @Test func maxAgeExceededForcesLoginAgain() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      tenant.clock.advance(by: 120)
      var parameters = AuthorizeParameters()
      parameters.extra = [("max_age", "60"), ("prompt", "none")]
      let response = try await browser.get(parameters.uri)
      #expect(items(of: try #require(response.location))["error"] == "login_required")
      parameters.extra = [("max_age", "600"), ("prompt", "none")]
      #expect(items(of: try #require(try await browser.get(parameters.uri).location))["code"] != nil)
    }
  }

  @Test func signupHintShowsTheSignupPageWithoutSession() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("screen_hint", "signup")]
      let authorize = try await browser.get(parameters.uri)
      let signupURL = try #require(authorize.location)
      #expect(signupURL.hasPrefix("/u/signup?"))
      let page = try await browser.get(signupURL)
      #expect(page.text.contains("data-page=\"signup\""))
      let fields = [
        ("state", hiddenField("state", in: page.text) ?? ""), ("_csrf", hiddenField("_csrf", in: page.text) ?? ""),
        ("email", "new.user@example.com"), ("password", "Str0ng-Passw0rd"),
      ]
      let done = try await browser.postForm(signupURL, fields)
      #expect(items(of: try #require(done.location))["code"] != nil)
    }
  }

  /// The signup page applies the connection's password rules, as `/dbconnections/signup` does.
  @Test(
    "Universal Login signup refuses passwords the connection's rules refuse; no user is created",
    arguments: [
      ("short", "Password is too weak"), ("password1!", "too common"), ("New.User-2024x", "user information"),
    ])
  func signupPageAppliesThePasswordRules(password: String, message: String) async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("screen_hint", "signup")]
      let signupURL = try #require(try await browser.get(parameters.uri).location)
      let page = try await browser.get(signupURL)
      let fields = [
        ("state", hiddenField("state", in: page.text) ?? ""), ("_csrf", hiddenField("_csrf", in: page.text) ?? ""),
        ("email", "new.user@example.com"), ("password", password),
      ]
      let refused = try await browser.postForm(signupURL, fields)
      #expect(refused.status == .badRequest)
      #expect(refused.location == nil)
      #expect(refused.text.contains(message), "\(refused.text)")
      #expect(
        tenant.read({ $0.users.find("new.user@example.com", connection: "Username-Password-Authentication") })
          == nil)
    }
  }

  @Test func wrongCSRFFieldIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let loginURL = try #require(try await browser.get(AuthorizeParameters().uri).location)
      let page = try await browser.get(loginURL)
      let state = try #require(hiddenField("state", in: page.text))
      let response = try await browser.postForm(
        loginURL,
        [("state", state), ("_csrf", "forged"), ("username", "alice@example.com"), ("password", "Alice-Passw0rd!")])
      #expect(response.status == .forbidden)
      #expect(response.location == nil)
      #expect(browser.cookie == nil)
      let missing = try await browser.postForm(
        loginURL, [("state", state), ("username", "alice@example.com"), ("password", "Alice-Passw0rd!")])
      #expect(missing.status == .forbidden)
    }
  }

  @Test func wrongPasswordShowsTheErrorMessage() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let loginURL = try #require(try await browser.get(AuthorizeParameters().uri).location)
      let page = try await browser.get(loginURL)
      let response = try await browser.postForm(
        loginURL,
        [
          ("state", hiddenField("state", in: page.text) ?? ""), ("_csrf", hiddenField("_csrf", in: page.text) ?? ""),
          ("username", "alice@example.com"), ("password", "wrong"),
        ])
      #expect(response.status == .badRequest)
      #expect(response.text.contains("<div id=\"error-message\" role=\"alert\">Wrong email or password.</div>"))
    }
  }

  @Test func reflectedValuesAreHTMLEscaped() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [("login_hint", "\"><script>alert(1)</script>")]
      let loginURL = try #require(try await browser.get(parameters.uri).location)
      let page = try await browser.get(loginURL)
      #expect(!page.text.contains("<script>"))
      #expect(page.text.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))

      var evil = AuthorizeParameters()
      evil.redirectURI = "https://x/<img src=x onerror=alert(1)>"
      let errorPage = try await browser.get(evil.uri)
      #expect(!errorPage.text.contains("<img"))
      #expect(errorPage.text.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }
  }

  @Test func blockedUserGetsUnauthorizedOnTheCallback() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let callback = try await browser.login(email: "blocked@example.com", password: "Blocked-Passw0rd!")
      #expect(items(of: callback)["error"] == "unauthorized")
      #expect(items(of: callback)["error_description"] == "user is blocked")
    }
  }
}
