import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/authorize?connection=email|sms`: the address page, the code page, the callback.
@Suite struct UniversalLoginPasswordlessTests {
  struct Page {
    var url: String
    var state: String
    var csrf: String
  }

  /// `/authorize?connection=…` up to the address page.
  static func addressPage(
    _ browser: inout Browser, connection: String = "email", extra: [(String, String)] = []
  ) async throws -> (Page, String) {
    var parameters = AuthorizeParameters()
    parameters.extra = [("connection", connection)] + extra
    let authorize = try await browser.get(parameters.uri)
    let url = try #require(authorize.location)
    #expect(url.hasPrefix("/u/passwordless?state="))
    let page = try await browser.get(url)
    #expect(page.status == .ok)
    #expect(page.text.contains("data-page=\"passwordless\""))
    let state = try #require(hiddenField("state", in: page.text))
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    return (Page(url: url, state: state, csrf: csrf), page.text)
  }

  /// Submits the address; the code page it leads to.
  static func codePage(
    _ browser: inout Browser, _ page: Page, field: String = "email", address: String
  ) async throws -> (Page, String) {
    let submitted = try await browser.postForm(
      page.url, [("state", page.state), ("_csrf", page.csrf), (field, address)])
    #expect(submitted.status == .found, "address refused: \(submitted.text)")
    let url = try #require(submitted.location)
    #expect(url.hasPrefix("/u/passwordless-challenge?state="))
    let code = try await browser.get(url)
    #expect(code.text.contains("data-page=\"passwordless-code\""))
    return (Page(url: url, state: page.state, csrf: page.csrf), code.text)
  }

  static func sentCode(_ tenant: MockTenant, to address: String) async throws -> String {
    try #require(tenant.read({ $0.outbox.list(to: address) }).last?.code)
  }

  @Test func emailCodeCompletesTheAuthorizationWithAnSSOSession() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (address, _) = try await Self.addressPage(&browser)
      let (page, html) = try await Self.codePage(&browser, address, address: "pat@example.com")
      #expect(html.contains("pat@example.com"))
      let code = try await Self.sentCode(tenant, to: "pat@example.com")
      let wrongGuess = code == "000000" ? "000001" : "000000"
      let wrong = try await browser.postForm(
        page.url, [("state", page.state), ("_csrf", page.csrf), ("code", wrongGuess)])
      #expect(wrong.status == .badRequest)
      #expect(wrong.text.contains("Wrong email or verification code."))
      let done = try await browser.postForm(page.url, [("state", page.state), ("_csrf", page.csrf), ("code", code)])
      #expect(done.status == .found)
      #expect(done.headers[.setCookie]?.hasPrefix("auth0=") == true)
      let callback = items(of: try #require(done.location))
      #expect(callback["state"] == "state-123")
      let exchanged = try await client.exchange(
        code: try #require(callback["code"]), verifier: AuthorizeParameters().verifier)
      #expect(exchanged.status == .ok)
      let idToken = try #require(exchanged.json["id_token"]?.stringValue)
      let claims = try #require(JWTValue(raw: idToken)).claims
      #expect(claims["email"] == .string("pat@example.com"))
      #expect(claims["sub"]?.stringValue?.hasPrefix("email|") == true)
      // The SSO session answers the next /authorize without a page.
      let again = try await browser.get(AuthorizeParameters().uri)
      #expect(items(of: try #require(again.location))["code"] != nil)
      // The code was used up by the login.
      #expect(tenant.transact({ $0.passwordlessCodes.get("email|pat@example.com", now: tenant.clock.seconds) }) == nil)
    }
  }

  @Test func smsSendsATextAndRefusesANonE164Number() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (address, html) = try await Self.addressPage(&browser, connection: "sms")
      #expect(html.contains("name=\"phone_number\""))
      let bad = try await browser.postForm(
        address.url, [("state", address.state), ("_csrf", address.csrf), ("phone_number", "555-1234")])
      #expect(bad.status == .badRequest)
      #expect(bad.text.contains("international format"))
      #expect(tenant.read({ $0.outbox.list(to: "555-1234") }).isEmpty)
      let (page, _) = try await Self.codePage(&browser, address, field: "phone_number", address: "+14155550100")
      let message = try #require(tenant.read({ $0.outbox.list(to: "+14155550100") }).last)
      #expect(message.channel == .sms)
      let wrong = try await browser.postForm(
        page.url, [("state", page.state), ("_csrf", page.csrf), ("code", "abc")])
      #expect(wrong.text.contains("Wrong phone number or verification code."))
      let done = try await browser.postForm(
        page.url, [("state", page.state), ("_csrf", page.csrf), ("code", try #require(message.code))])
      #expect(items(of: try #require(done.location))["code"] != nil)
    }
  }

  @Test func bothFormsAreCSRFBoundToTheTransaction() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (address, _) = try await Self.addressPage(&browser)
      let forged = try await browser.postForm(
        address.url, [("state", address.state), ("_csrf", "forged"), ("email", "victim@example.com")])
      #expect(forged.status == .forbidden)
      #expect(tenant.read({ $0.outbox.list(to: "victim@example.com") }).isEmpty)
      // Another transaction's CSRF token is refused too.
      var other = Browser(client)
      let (otherAddress, _) = try await Self.addressPage(&other)
      let crossed = try await browser.postForm(
        address.url, [("state", address.state), ("_csrf", otherAddress.csrf), ("email", "victim@example.com")])
      #expect(crossed.status == .forbidden)
      let (page, _) = try await Self.codePage(&browser, address, address: "pat@example.com")
      let code = try await Self.sentCode(tenant, to: "pat@example.com")
      let forgedCode = try await browser.postForm(
        page.url, [("state", page.state), ("_csrf", otherAddress.csrf), ("code", code)])
      #expect(forgedCode.status == .forbidden)
      #expect(forgedCode.location == nil)
      // The code page needs an address first: the other transaction has none.
      let early = try await other.postForm(
        "/u/passwordless-challenge?state=\(escape(otherAddress.state))",
        [("state", otherAddress.state), ("_csrf", otherAddress.csrf), ("code", code)])
      #expect(early.status == .badRequest)
      #expect(early.location == nil)
    }
  }

  @Test func userValuesAreEscaped() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let hint = "\"><script>alert(1)</script>"
      let (address, html) = try await Self.addressPage(&browser, extra: [("login_hint", hint)])
      #expect(!html.contains("<script>"))
      #expect(html.contains("&quot;&gt;&lt;script&gt;"))
      let tricky = "a<img src=x onerror=alert(1)>@example.com"
      let (_, code) = try await Self.codePage(&browser, address, address: tricky)
      #expect(!code.contains("<img"))
      #expect(code.contains("a&lt;img src=x onerror=alert(1)&gt;@example.com"))
    }
  }

  @Test func threeWrongCodesUseTheCodeUpAndEndTheTransaction() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (address, _) = try await Self.addressPage(&browser)
      let (page, _) = try await Self.codePage(&browser, address, address: "pat@example.com")
      let code = try await Self.sentCode(tenant, to: "pat@example.com")
      let guess = code == "111111" ? "222222" : "111111"
      for _ in 0..<2 {
        let wrong = try await browser.postForm(
          page.url, [("state", page.state), ("_csrf", page.csrf), ("code", guess)])
        #expect(wrong.status == .badRequest)
      }
      let blocked = try await browser.postForm(
        page.url, [("state", page.state), ("_csrf", page.csrf), ("code", guess)])
      #expect(blocked.status == .tooManyRequests)
      #expect(blocked.text.contains("You&#39;ve reached the maximum number of attempts."))
      let late = try await browser.postForm(page.url, [("state", page.state), ("_csrf", page.csrf), ("code", code)])
      #expect(late.status == .badRequest)
      #expect(late.location == nil)
      // The code itself is gone: the token endpoint refuses it too.
      let token = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/passwordless/otp"),
          "client_id": .string("native-client-id"), "username": .string("pat@example.com"), "otp": .string(code),
          "realm": .string("email"),
        ])
      #expect(token.status == .forbidden)
    }
  }

  @Test func anExpiredCodeIsRefused() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (address, _) = try await Self.addressPage(&browser)
      let (page, _) = try await Self.codePage(&browser, address, address: "pat@example.com")
      let code = try await Self.sentCode(tenant, to: "pat@example.com")
      tenant.clock.advance(by: PasswordlessCodes.lifetime + 1)
      let late = try await browser.postForm(page.url, [("state", page.state), ("_csrf", page.csrf), ("code", code)])
      #expect(late.status == .badRequest)
      #expect(late.text.contains("Wrong email or verification code."))
    }
  }
}
