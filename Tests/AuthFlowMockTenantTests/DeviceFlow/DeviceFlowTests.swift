import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// The device authorization grant (RFC 8628) as the mock serves it: `/oauth/device/code`, the
/// `/activate` pages and the `device_code` grant.
@Suite struct DeviceFlowTests {
  static let grant = "urn:ietf:params:oauth:grant-type:device_code"

  @Test func theCodeResponseHasAuth0sShapeForJSONAndFormBodies() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let json = try await client.postJSON(
        "/oauth/device/code", ["client_id": .string("native-client-id"), "scope": .string("openid profile")])
      #expect(json.status == .ok)
      let body = json.json
      let userCode = try #require(body["user_code"]?.stringValue)
      #expect(userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil)
      #expect(body["verification_uri"]?.stringValue == "http://mock.test/activate")
      #expect(body["verification_uri_complete"]?.stringValue == "http://mock.test/activate?user_code=\(userCode)")
      #expect(body["expires_in"] == .int(900))
      #expect(body["interval"] == .int(5))
      #expect((body["device_code"]?.stringValue?.count ?? 0) >= 32)
      let form = try await client.postForm("/oauth/device/code", [("client_id", "native-client-id")])
      #expect(form.status == .ok)
      #expect(form.json["user_code"]?.stringValue != userCode)
      #expect(form.json["device_code"] != body["device_code"])
    }
  }

  @Test func theCodeEndpointRefusesWhatAuth0Refuses() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let missing = try await client.postJSON("/oauth/device/code", ["scope": .string("openid")])
      #expect(missing.status == .badRequest)
      #expect(missing.json["error_description"] == .string("missing client_id parameter"))
      let unknown = try await client.postJSON("/oauth/device/code", ["client_id": .string("nope")])
      #expect(unknown.status == .unauthorized)
      #expect(unknown.json["error"] == .string("access_denied"))
      let notAllowed = try await client.postJSON("/oauth/device/code", ["client_id": .string("legacy-client-id")])
      #expect(notAllowed.status == .forbidden)
      #expect(notAllowed.json["error"] == .string("unauthorized_client"))
      #expect(
        notAllowed.json["error_description"] == .string("Grant type '\(Self.grant)' not allowed for the client."))
      let audience = try await client.postJSON(
        "/oauth/device/code",
        ["client_id": .string("native-client-id"), "audience": .string("https://unknown.example.com")])
      #expect(audience.status == .forbidden)
      #expect(
        audience.json["error_description"] == .string("Service not enabled within domain: https://unknown.example.com"))
      let malformed = try await client.execute(
        uri: "/oauth/device/code", method: .post, headers: [.contentType: "application/json"],
        body: .init(string: "{not json"))
      #expect(malformed.status == .badRequest)
    }
  }

  @Test func pendingSlowDownThenTokensOnceAndOnlyOnce() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let code = try await Self.requestCode(client, scope: "openid profile email offline_access")
      let pending = try await Self.poll(client, code.device)
      #expect(pending.status == .forbidden)
      #expect(pending.json["error"] == .string("authorization_pending"))
      #expect(pending.json["error_description"] == .string("User has yet to authorize device code."))
      let tooFast = try await Self.poll(client, code.device)
      #expect(tooFast.status == .tooManyRequests)
      #expect(tooFast.json["error"] == .string("slow_down"))
      #expect(
        tooFast.json["error_description"] == .string("You are polling faster than the specified interval of 5 seconds.")
      )

      var browser = Browser(client)
      let done = try await Self.activate(&browser, code.user, login: ("alice@example.com", "Alice-Passw0rd!"))
      #expect(done.status == .ok)
      #expect(done.text.contains("data-outcome=\"approved\""))
      #expect(browser.cookie?.hasPrefix("auth0=") == true)

      tenant.clock.advance(by: 5)
      let tokens = try await Self.poll(client, code.device)
      #expect(tokens.status == .ok)
      let idToken = try #require(tokens.json["id_token"]?.stringValue)
      let jwt = try CompactJWS(parsing: idToken)
      #expect(jwt.claims["email"] == .string("alice@example.com"))
      #expect(jwt.claims["aud"] == .string("native-client-id"))
      #expect(tokens.json["refresh_token"]?.stringValue != nil)

      tenant.clock.advance(by: 5)
      let again = try await Self.poll(client, code.device)
      #expect(again.status == .forbidden)
      #expect(again.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func declinedCodesAnswerAccessDeniedOnce() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let code = try await Self.requestCode(client)
      var browser = Browser(client)
      let done = try await Self.activate(&browser, code.user, decision: "deny")
      #expect(done.text.contains("data-outcome=\"denied\""))
      let denied = try await Self.poll(client, code.device)
      #expect(denied.status == .forbidden)
      #expect(denied.json["error"] == .string("access_denied"))
      let after = try await Self.poll(client, code.device)
      #expect(after.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func codesExpireOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let code = try await Self.requestCode(client)
      tenant.clock.advance(by: 901)
      var browser = Browser(client)
      let page = try await browser.get("/activate")
      let entered = try await browser.postForm(
        "/activate",
        [
          ("state", try #require(hiddenField("state", in: page.text))),
          ("_csrf", try #require(hiddenField("_csrf", in: page.text))), ("user_code", code.user),
        ])
      #expect(entered.status == .badRequest)
      #expect(entered.text.contains("Invalid or expired code"))
      let expired = try await Self.poll(client, code.device)
      #expect(expired.status == .forbidden)
      #expect(expired.json["error"] == .string("expired_token"))
      let forgotten = try await Self.poll(client, code.device)
      #expect(forgotten.json["error"] == .string("invalid_grant"))
      #expect(forgotten.json["error_description"] == .string("Invalid or expired device code."))
    }
  }

  @Test func aDeviceCodeIsBoundToItsClient() async throws {
    let tenant = try MockHarness.tenant { $0.clients["web"]?.grantTypes.append(Self.grant) }
    try await MockHarness.test(tenant) { client in
      let code = try await Self.requestCode(client)
      let foreign = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string(Self.grant), "client_id": .string("web-client-id"),
          "client_secret": .string("web-client-secret"), "device_code": .string(code.device),
        ])
      #expect(foreign.status == .forbidden)
      #expect(foreign.json["error"] == .string("invalid_grant"))
      let own = try await Self.poll(client, code.device)
      #expect(own.json["error"] == .string("authorization_pending"))
      let noGrant = try await client.postJSON(
        "/oauth/token",
        ["grant_type": .string(Self.grant), "client_id": .string("legacy-client-id"), "device_code": .string("x")])
      #expect(noGrant.json["error"] == .string("unauthorized_client"))
      let missing = try await client.postJSON(
        "/oauth/token", ["grant_type": .string(Self.grant), "client_id": .string("native-client-id")])
      #expect(missing.status == .badRequest)
      #expect(missing.json["error_description"] == .string("Missing required parameter: device_code"))
    }
  }

  @Test func bothActivationFormsRequireTheTransactionsCSRFToken() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let code = try await Self.requestCode(client)
      var browser = Browser(client)
      let page = try await browser.get("/activate")
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let forged = try await browser.postForm(
        "/activate", [("state", state), ("_csrf", "forged"), ("user_code", code.user)])
      #expect(forged.status == .forbidden)
      #expect(!forged.text.contains("device-confirm-form"))
      let noCSRF = try await browser.postForm("/activate", [("state", state), ("user_code", code.user)])
      #expect(noCSRF.status == .forbidden)
      let entered = try await browser.postForm(
        "/activate", [("state", state), ("_csrf", csrf), ("user_code", code.user.lowercased())])
      #expect(entered.status == .ok)
      #expect(entered.text.contains("device-confirm-form"))
      let forgedConfirm = try await browser.postForm(
        "/activate/confirm?state=\(state)", [("state", state), ("_csrf", "forged"), ("action", "deny")])
      #expect(forgedConfirm.status == .forbidden)
      let other = try await browser.get("/activate")
      let otherCSRF = try #require(hiddenField("_csrf", in: other.text))
      let crossed = try await browser.postForm(
        "/activate/confirm?state=\(state)", [("state", state), ("_csrf", otherCSRF), ("action", "confirm")])
      #expect(crossed.status == .forbidden)
      let stillPending = try await Self.poll(client, code.device)
      #expect(stillPending.json["error"] == .string("authorization_pending"))
      let unknown = try await browser.postForm("/activate", [("state", "nope"), ("_csrf", csrf)])
      #expect(unknown.status == .badRequest)
    }
  }

  @Test func reflectedValuesAreEscaped() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let hostile = "<script>alert(1)</script>\"'"
      let page = try await browser.get("/activate?user_code=\(escape(hostile))")
      #expect(page.status == .ok)
      #expect(!page.text.contains("<script>"))
      #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;"))
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let wrong = try await browser.postForm("/activate", [("state", state), ("_csrf", csrf), ("user_code", hostile)])
      #expect(wrong.status == .badRequest)
      #expect(!wrong.text.contains("<script>"))
      #expect(wrong.text.contains("&lt;script&gt;"))
    }
  }

  @Test func aUserCodeIsDecidedOnceAndGuessesAreLimited() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let code = try await Self.requestCode(client)
      var first = Browser(client)
      _ = try await Self.activate(&first, code.user, decision: "deny")
      var second = Browser(client)
      let page = try await second.get("/activate")
      let state = try #require(hiddenField("state", in: page.text))
      let csrf = try #require(hiddenField("_csrf", in: page.text))
      let reused = try await second.postForm(
        "/activate", [("state", state), ("_csrf", csrf), ("user_code", code.user)])
      #expect(reused.status == .badRequest)
      #expect(reused.text.contains("Invalid or expired code"))
      for _ in 0..<3 {
        let guess = try await second.postForm(
          "/activate", [("state", state), ("_csrf", csrf), ("user_code", "BBBB-BBBB")])
        #expect(guess.status == .badRequest)
      }
      let blocked = try await second.postForm(
        "/activate", [("state", state), ("_csrf", csrf), ("user_code", "BBBB-BBBB")])
      #expect(blocked.status == .tooManyRequests)
      let gone = try await second.postForm(
        "/activate", [("state", state), ("_csrf", csrf), ("user_code", "BBBB-BBBB")])
      #expect(gone.status == .badRequest)
      #expect(gone.text.contains("activation session is unknown"))
    }
  }

  @Test func anSSOSessionConfirmsWithoutTheLoginPage() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      _ = try await browser.login(email: "alice@example.com", password: "Alice-Passw0rd!")
      let code = try await Self.requestCode(client)
      let done = try await Self.activate(&browser, code.user)
      #expect(done.status == .ok)
      #expect(done.text.contains("data-outcome=\"approved\""))
      let tokens = try await Self.poll(client, code.device)
      let jwt = try CompactJWS(parsing: try #require(tokens.json["id_token"]?.stringValue))
      #expect(jwt.claims["sub"] == .string("auth0|alice0001"))
    }
  }

  @Test func aBlockedUserIsNotApproved() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let code = try await Self.requestCode(client)
      var browser = Browser(client)
      let done = try await Self.activate(&browser, code.user, login: ("blocked@example.com", "Blocked-Passw0rd!"))
      #expect(!done.text.contains("data-outcome=\"approved\""))
      #expect(done.text.contains("user is blocked"))
      let pending = try await Self.poll(client, code.device)
      #expect(pending.json["error"] == .string("authorization_pending"))
    }
  }

  // MARK: - Helpers

  static func requestCode(
    _ client: any TestClientProtocol, scope: String = "openid profile email"
  ) async throws -> (device: String, user: String) {
    let response = try await client.postJSON(
      "/oauth/device/code", ["client_id": .string("native-client-id"), "scope": .string(scope)])
    return (
      try #require(response.json["device_code"]?.stringValue), try #require(response.json["user_code"]?.stringValue)
    )
  }

  static func poll(_ client: any TestClientProtocol, _ deviceCode: String) async throws -> TestResponse {
    try await client.postForm(
      "/oauth/token", [("grant_type", grant), ("client_id", "native-client-id"), ("device_code", deviceCode)])
  }

  /// Enters `userCode`, confirms or declines, and logs in with `login` when the login page shows.
  static func activate(
    _ browser: inout Browser, _ userCode: String, decision: String = "confirm", login: (String, String)? = nil
  ) async throws -> TestResponse {
    let page = try await browser.get("/activate?user_code=\(userCode)")
    #expect(page.text.contains("value=\"\(userCode)\""))
    let state = try #require(hiddenField("state", in: page.text))
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    let confirm = try await browser.postForm(
      "/activate?state=\(state)", [("state", state), ("_csrf", csrf), ("user_code", userCode)])
    #expect(confirm.status == .ok)
    #expect(confirm.text.contains("id=\"user-code\">\(userCode)<"))
    let decided = try await browser.postForm(
      "/activate/confirm?state=\(state)", [("state", state), ("_csrf", csrf), ("action", decision)])
    guard decided.status == .found, let loginURL = decided.location else { return decided }
    let loginPage = try await browser.get(loginURL)
    let (email, password) = try #require(login)
    return try await browser.postForm(
      loginURL,
      [
        ("state", try #require(hiddenField("state", in: loginPage.text))),
        ("_csrf", try #require(hiddenField("_csrf", in: loginPage.text))), ("username", email), ("password", password),
      ])
  }
}
