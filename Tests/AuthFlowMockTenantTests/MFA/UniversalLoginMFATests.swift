import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct UniversalLoginMFATests {
  static func bobReachesTheMFAPage(_ browser: inout Browser) async throws -> (url: String, state: String, csrf: String)
  {
    let authorize = try await browser.get(AuthorizeParameters().uri)
    let loginURL = try #require(authorize.location)
    let page = try await browser.get(loginURL)
    let state = try #require(hiddenField("state", in: page.text))
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    let mfa = try await browser.postForm(
      loginURL, [("state", state), ("_csrf", csrf), ("username", "bob@example.com"), ("password", "Bob-Passw0rd!")])
    #expect(mfa.status == .ok)
    #expect(mfa.text.contains("data-page=\"mfa-otp\""))
    #expect(mfa.text.contains("name=\"code\""))
    return ("/u/mfa-otp-challenge?state=" + escape(state), state, csrf)
  }

  static func code(_ tenant: MockTenant) throws -> String {
    let totp = try #require(TOTP(base32Secret: "JBSWY3DPEHPK3PXP"))
    return totp.code(at: tenant.clock.now())
  }

  @Test func mfaUserGetsTheCodeFormBeforeTheCallback() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (url, state, csrf) = try await Self.bobReachesTheMFAPage(&browser)
      let wrong = try await browser.postForm(url, [("state", state), ("_csrf", csrf), ("code", "000000")])
      #expect(wrong.status == .badRequest)
      #expect(wrong.text.contains("The code you entered is invalid"))
      let done = try await browser.postForm(url, [("state", state), ("_csrf", csrf), ("code", try Self.code(tenant))])
      #expect(done.status == .found)
      #expect(items(of: done.location ?? "")["code"] != nil)
    }
  }

  @Test func theCodeFormIsCSRFBound() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (url, state, _) = try await Self.bobReachesTheMFAPage(&browser)
      let forged = try await browser.postForm(
        url, [("state", state), ("_csrf", "forged"), ("code", try Self.code(tenant))])
      #expect(forged.status == .forbidden)
      #expect(forged.location == nil)
    }
  }

  @Test func tooManyWrongCodesBlockTheTransaction() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let (url, state, csrf) = try await Self.bobReachesTheMFAPage(&browser)
      for _ in 0..<(UniversalLoginMFARoutes.maxFailures - 1) {
        _ = try await browser.postForm(url, [("state", state), ("_csrf", csrf), ("code", "000000")])
      }
      let blocked = try await browser.postForm(url, [("state", state), ("_csrf", csrf), ("code", "000000")])
      #expect(blocked.status == .tooManyRequests)
      let after = try await browser.postForm(url, [("state", state), ("_csrf", csrf), ("code", try Self.code(tenant))])
      #expect(after.status == .badRequest)
      #expect(after.location == nil)
    }
  }
}
