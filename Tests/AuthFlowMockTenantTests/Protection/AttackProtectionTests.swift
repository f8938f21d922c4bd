import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct AttackProtectionTests {
  static func passwordRealm(_ username: String, _ password: String) -> [String: Value] {
    [
      "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
      "client_id": .string("native-client-id"), "username": .string(username), "password": .string(password),
      "realm": .string("Username-Password-Authentication"),
    ]
  }

  /// Password-realm for the confidential web client (the one whose `auth0-forwarded-for` counts).
  static func serverSide(_ username: String, _ password: String) -> [String: Value] {
    var body = passwordRealm(username, password)
    body["client_id"] = .string("web-client-id")
    body["client_secret"] = .string("web-client-secret")
    return body
  }

  @Test func bruteForceBlocksUserAndIPUntilTheUnblockLink() async throws {
    let tenant = try MockHarness.tenant {
      $0.settings.bruteForceLimit = 3
      $0.clients["web"]?.grantTypes.append("http://auth0.com/oauth/grant-type/password-realm")
    }
    try await MockHarness.test(tenant) { client in
      let ip: HTTPFields = [.init("auth0-forwarded-for")!: "203.0.113.7"]
      for _ in 0..<3 {
        let wrong = try await client.postJSON(
          "/oauth/token", Self.serverSide("alice@example.com", "nope"), headers: ip)
        #expect(wrong.json["error_description"] == .string("Wrong email or password."))
      }
      let blocked = try await client.postJSON(
        "/oauth/token", Self.serverSide("alice@example.com", "Alice-Passw0rd!"), headers: ip)
      #expect(blocked.status == .tooManyRequests)
      #expect(blocked.json["error"] == .string("too_many_attempts"))
      // Another IP is not blocked.
      let other = try await client.postJSON(
        "/oauth/token", Self.serverSide("alice@example.com", "Alice-Passw0rd!"),
        headers: [.init("auth0-forwarded-for")!: "198.51.100.1"])
      #expect(other.status == .ok)
      let outbox = try await client.execute(uri: "/__mock/outbox?to=alice@example.com", method: .get).json
      let link = try #require(outbox["messages"]?.arrayValue?.last?.objectValue?["link"]?.stringValue)
      #expect(link.contains("/lo/unblock?ticket="))
      let unblock = try await client.execute(uri: String(link.dropFirst(MockHarness.baseURL.count - 1)), method: .get)
      #expect(unblock.status == .ok)
      let again = try await client.postJSON(
        "/oauth/token", Self.serverSide("alice@example.com", "Alice-Passw0rd!"), headers: ip)
      #expect(again.status == .ok)
    }
  }

  @Test func universalLoginBruteForceShowsTheBlockedMessage() async throws {
    let tenant = try MockHarness.tenant { $0.settings.bruteForceLimit = 2 }
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let authorize = try await browser.get(AuthorizeParameters().uri)
      let loginURL = try #require(authorize.location)
      let page = try await browser.get(loginURL)
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      for _ in 0..<2 {
        _ = try await browser.postForm(
          loginURL, [("state", state), ("_csrf", csrf), ("username", "alice@example.com"), ("password", "x")])
      }
      let blocked = try await browser.postForm(
        loginURL,
        [("state", state), ("_csrf", csrf), ("username", "alice@example.com"), ("password", "Alice-Passw0rd!")])
      #expect(blocked.status == .tooManyRequests)
      #expect(blocked.text.contains("blocked after multiple consecutive login attempts"))
    }
  }

  @Test func botDetectionRequiresVerificationForSuspiciousDirectLoginAndSignup() async throws {
    let tenant = try MockHarness.tenant { $0.settings.botDetection = true }
    try await MockHarness.test(tenant) { client in
      let login = try await client.postJSON(
        "/oauth/token", Self.passwordRealm("eve+suspicious@example.com", "Whatever-1!"))
      #expect(login.status == .unauthorized)
      #expect(
        login.json == [
          "error": .string("requires_verification"),
          "error_description": .string("Suspicious request requires verification"),
        ])
      let signup = try await client.postJSON(
        "/dbconnections/signup", DBConnectionTests.signupBody(email: "eve+suspicious@example.com"))
      #expect(signup.json["code"] == .string("requires_verification"))
      #expect(signup.json["description"] == .string("Suspicious request requires verification"))
      // Not suspicious: normal answers.
      let normal = try await client.postJSON("/oauth/token", Self.passwordRealm("alice@example.com", "Alice-Passw0rd!"))
      #expect(normal.status == .ok)
    }
  }

  @Test func botDetectionFallbackThroughUniversalLoginNeedsTheFormsChallenge() async throws {
    let tenant = try MockHarness.tenant { $0.settings.botDetection = true }
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [
        ("connection", "Username-Password-Authentication"), ("login_hint", "eve+suspicious@example.com"),
        ("screen_hint", "signup"),
      ]
      let authorize = try await browser.get(parameters.uri)
      let pageURL = try #require(authorize.location)
      let page = try await browser.get(pageURL)
      #expect(page.text.contains("value=\"eve+suspicious@example.com\""))
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let captcha = try #require(hiddenField("captcha", in: page.text))
      let base = [
        ("state", state), ("_csrf", csrf), ("email", "eve+suspicious@example.com"), ("password", "Str0ng-Passw0rd!"),
      ]
      let missing = try await browser.postForm(pageURL, base)
      #expect(missing.status == .badRequest)
      #expect(missing.text.contains("solve the challenge"))
      let solved = try await browser.postForm(pageURL, base + [("captcha", captcha)])
      #expect(solved.status == .found, "\(solved.text)")
      #expect(items(of: solved.location ?? "")["code"] != nil)
    }
  }
}
