import AuthFlowCore
import AuthFlowJOSE
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct TokenTests {
  static let verifier = AuthorizeParameters().verifier

  /// Logs alice in and returns the code.
  static func code(
    _ browser: inout Browser, _ parameters: AuthorizeParameters = AuthorizeParameters()
  ) async throws
    -> String
  {
    let callback = try await browser.login(parameters, email: "alice@example.com", password: "Alice-Passw0rd!")
    return try #require(items(of: callback)["code"])
  }

  /// A body is read as its `Content-Type` says, as Auth0's body parsers read it (RFC 6749 §4.1.3:
  /// a token request is a form). A form sent as `text/plain` or without the header, or JSON labelled
  /// as a form, is not the request it looks like: a client with that bug must not get tokens here
  /// and a 400 from Auth0. Parameters of the media type and its letter case do not matter.
  @Test(
    arguments: [
      ("application/x-www-form-urlencoded", "form", 200),
      ("Application/X-WWW-Form-Urlencoded; charset=UTF-8", "form", 200),
      ("application/json; charset=utf-8", "json", 200),
      ("application/vnd.example+json", "json", 200),
      ("text/plain", "form", 400),
      (nil, "form", 400),
      (nil, "json", 400),
      ("application/x-www-form-urlencoded", "json", 400),
      ("multipart/form-data; boundary=x", "form", 400),
    ] as [(String?, String, Int)])
  func aBodyIsReadAsItsContentTypeSays(contentType: String?, encoding: String, status: Int) async throws {
    let fields = [
      ("grant_type", "client_credentials"), ("client_id", "m2m-client-id"), ("client_secret", "m2m-client-secret"),
      ("audience", "https://api.example.com"),
    ]
    let body =
      encoding == "json"
      ? Value.object(Dictionary(uniqueKeysWithValues: fields.map { ($0.0, Value.string($0.1)) })).jsonText()
      : fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var headers = HTTPFields()
      if let contentType { headers[.contentType] = contentType }
      let response = try await client.execute(
        uri: "/oauth/token", method: .post, headers: headers, body: ByteBuffer(string: body))
      #expect(response.status.code == status, "\(response.json)")
      if status == 400 {
        #expect(response.json["error_description"] == .string("Missing required parameter: grant_type"))
      } else {
        #expect(response.json["access_token"] != nil)
      }
    }
  }

  @Test func codeExchangeReturnsValidTokens() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.extra = [
        ("max_age", "3600"), ("organization", "org_acme123"), ("audience", "https://api.example.com"),
      ]
      let code = try await Self.code(&browser, parameters)
      let response = try await client.exchange(code: code, verifier: Self.verifier)
      #expect(response.status == .ok)
      let body = response.json
      #expect(body["token_type"] == .string("Bearer"))
      #expect(body["expires_in"] == .int(86400))
      #expect(body["refresh_token"]?.stringValue != nil)
      let idToken = try #require(body["id_token"]?.stringValue)
      let validator = IDTokenValidator(
        keys: tenant.verificationKeys,
        options: .init(
          issuer: "http://mock.test/", clientID: "native-client-id", nonce: "nonce-456", maxAge: 3600,
          organization: "org_acme123", now: { tenant.clock.now() }))
      let jws = try validator.validate(idToken)
      #expect(jws.header["kid"] == .string("mock-test"))
      #expect(jws.claims["aud"] == .string("native-client-id"))
      #expect(jws.claims["email"] == .string("alice@example.com"))
      #expect(jws.claims["org_name"] == .string("acme"))
      #expect(jws.claims["https://example.com/roles"] == .array([.string("admin"), .string("editor")]))
      let access = try tenant.verificationKeys.verify(try #require(body["access_token"]?.stringValue))
      #expect(
        access.claims["aud"] == .array([.string("https://api.example.com"), .string("http://mock.test/userinfo")]))
      #expect(access.claims["azp"] == .string("native-client-id"))
    }
  }

  @Test func pkceMismatchIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let response = try await client.exchange(code: code, verifier: PKCE.generateVerifier())
      #expect(response.status == .forbidden)
      #expect(response.json["error"] == .string("invalid_grant"))
      #expect(response.json["error_description"] == .string("Failed to verify code verifier"))
    }
  }

  @Test func missingVerifierIsRejectedWhenAChallengeWasSent() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("authorization_code"), "client_id": .string("native-client-id"),
          "code": .string(code), "redirect_uri": .string(MockHarness.nativeCallback),
        ])
      #expect(response.json["error_description"] == .string("Failed to verify code verifier"))
    }
  }

  @Test func codesAreSingleUse() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      #expect(try await client.exchange(code: code, verifier: Self.verifier).status == .ok)
      let reuse = try await client.exchange(code: code, verifier: Self.verifier)
      #expect(reuse.status == .forbidden)
      #expect(reuse.json["error"] == .string("invalid_grant"))
      #expect(reuse.json["error_description"] == .string("Invalid authorization code"))
    }
  }

  @Test func codesExpireOnTheVirtualClock() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      tenant.clock.advance(by: 61)
      let response = try await client.exchange(code: code, verifier: Self.verifier)
      #expect(response.json["error_description"] == .string("Invalid authorization code"))
    }
  }

  @Test func redirectURIMismatchAtTokenIsRejected() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let response = try await client.exchange(
        code: code, verifier: Self.verifier, redirectURI: "com.example.app://127.0.0.1/ios/com.example.app/callback")
      #expect(response.status == .forbidden)
      #expect(response.json["error"] == .string("invalid_grant"))
    }
  }

  @Test func formBodiesAreAcceptedToo() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let response = try await client.postForm(
        "/oauth/token",
        [
          ("grant_type", "authorization_code"), ("client_id", "native-client-id"), ("code", code),
          ("code_verifier", Self.verifier), ("redirect_uri", MockHarness.nativeCallback),
        ])
      #expect(response.status == .ok)
      #expect(response.json["access_token"] != nil)
    }
  }

  @Test func confidentialClientMustAuthenticate() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let body: [String: Value] = [
        "grant_type": .string("client_credentials"), "client_id": .string("m2m-client-id"),
        "audience": .string("https://api.example.com"),
      ]
      let missing = try await client.postJSON("/oauth/token", body)
      #expect(missing.status == .unauthorized)
      #expect(missing.json["error"] == .string("access_denied"))
      #expect(missing.json["error_description"] == .string("Unauthorized"))
      var wrong = body
      wrong["client_secret"] = .string("guess")
      #expect(try await client.postJSON("/oauth/token", wrong).status == .unauthorized)
      var right = body
      right["client_secret"] = .string("m2m-client-secret")
      let ok = try await client.postJSON("/oauth/token", right)
      #expect(ok.status == .ok)
      #expect(ok.json["scope"] == .string("read:messages write:messages"))
      #expect(ok.json["id_token"] == nil && ok.json["refresh_token"] == nil)
      let basic = "Basic " + Data("m2m-client-id:m2m-client-secret".utf8).base64EncodedString()
      let viaBasic = try await client.postJSON(
        "/oauth/token", ["grant_type": .string("client_credentials"), "audience": .string("https://api.example.com")],
        headers: [.authorization: basic])
      #expect(viaBasic.status == .ok)
    }
  }

  @Test func grantNotAllowedForTheClient() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("client_credentials"), "client_id": .string("native-client-id"),
          "audience": .string("https://api.example.com"),
        ])
      #expect(response.status == .forbidden)
      #expect(response.json["error"] == .string("unauthorized_client"))
      #expect(
        response.json["error_description"] == .string("Grant type 'client_credentials' not allowed for the client."))
    }
  }

  @Test func malformedAndIncompleteRequestsGetOAuthErrors() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let garbage = try await client.execute(
        uri: "/oauth/token", method: .post, headers: [.contentType: "application/json"],
        body: .init(string: "{not json"))
      #expect(garbage.status == .badRequest)
      #expect(garbage.json["error"] == .string("invalid_request"))
      let noGrant = try await client.postJSON("/oauth/token", ["client_id": .string("native-client-id")])
      #expect(noGrant.json["error_description"] == .string("Missing required parameter: grant_type"))
      let noClient = try await client.postJSON("/oauth/token", ["grant_type": .string("refresh_token")])
      #expect(noClient.json["error_description"] == .string("missing client_id parameter"))
      let unsupported = try await client.postJSON(
        "/oauth/token", ["grant_type": .string("magic"), "client_id": .string("native-client-id")])
      #expect(unsupported.status == .notImplemented)
      #expect(unsupported.json["error"] == .string("unsupported_grant_type"))
      let noCode = try await client.postJSON(
        "/oauth/token", ["grant_type": .string("authorization_code"), "client_id": .string("native-client-id")])
      #expect(noCode.json["error_description"] == .string("Missing required parameter: code"))
    }
  }

  @Test func refreshRotationAndReuseRevokesTheFamily() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let login = try await client.exchange(code: code, verifier: Self.verifier).json
      let first = try #require(login["refresh_token"]?.stringValue)
      func renew(_ token: String) async throws -> TestResponse {
        try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"),
            "refresh_token": .string(token),
          ])
      }
      let renewed = try await renew(first)
      #expect(renewed.status == .ok)
      let second = try #require(renewed.json["refresh_token"]?.stringValue)
      #expect(second != first)
      #expect(renewed.json["id_token"] != nil)

      let reuse = try await renew(first)
      #expect(reuse.status == .forbidden)
      #expect(reuse.json["error"] == .string("invalid_grant"))
      #expect(reuse.json["error_description"] == .string("Unknown or invalid refresh token."))
      // The whole family is revoked, newest token included.
      #expect(try await renew(second).json["error_description"] == .string("Unknown or invalid refresh token."))
    }
  }

  @Test func nonRotatingRefreshKeepsTheToken() async throws {
    let tenant = try MockHarness.tenant { $0.settings.refreshTokenRotation = false }
    try await MockHarness.test(tenant) { client in
      let login = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
          "client_id": .string("native-client-id"), "username": .string("alice@example.com"),
          "password": .string("Alice-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
          "scope": .string("openid offline_access"),
        ])
      let token = try #require(login.json["refresh_token"]?.stringValue)
      for _ in 0..<2 {
        let renewed = try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"),
            "refresh_token": .string(token),
          ])
        #expect(renewed.status == .ok)
        #expect(renewed.json["refresh_token"] == nil)
      }
    }
  }

  @Test func mrrtAudienceFromPolicy() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      var browser = Browser(client)
      let code = try await Self.code(&browser)
      let token = try #require(try await client.exchange(code: code, verifier: Self.verifier).json["refresh_token"])
      let body: [String: Value] = [
        "grant_type": .string("refresh_token"), "client_id": .string("native-client-id"), "refresh_token": token,
        "audience": .string("https://api.example.com"), "scope": .string("openid read:messages write:messages"),
      ]
      let response = try await client.postJSON("/oauth/token", body)
      #expect(response.status == .ok)
      #expect(response.json["scope"] == .string("openid read:messages"))
      let access = try tenant.verificationKeys.verify(try #require(response.json["access_token"]?.stringValue))
      #expect(
        access.claims["aud"] == .array([.string("https://api.example.com"), .string("http://mock.test/userinfo")]))
      var other = body
      other["refresh_token"] = response.json["refresh_token"]
      other["audience"] = .string("https://elsewhere.example.com")
      #expect(try await client.postJSON("/oauth/token", other).status == .forbidden)
    }
  }

  @Test func passwordRealmErrors() async throws {
    try await MockHarness.test(try MockHarness.tenant { $0.settings.bruteForceLimit = 3 }) { client in
      func login(
        _ username: String, _ password: String, realm: String = "Username-Password-Authentication"
      )
        async throws -> TestResponse
      {
        try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
            "client_id": .string("native-client-id"), "username": .string(username), "password": .string(password),
            "realm": .string(realm),
          ])
      }
      let wrong = try await login("alice@example.com", "nope")
      #expect(wrong.status == .forbidden)
      #expect(wrong.json["error_description"] == .string("Wrong email or password."))
      let blocked = try await login("blocked@example.com", "Blocked-Passw0rd!")
      #expect(blocked.status == .unauthorized)
      #expect(blocked.json["error"] == .string("unauthorized"))
      #expect(blocked.json["error_description"] == .string("user is blocked"))
      #expect(
        try await login("a", "b", realm: "nowhere").json["error_description"] == .string("the connection was not found")
      )
      _ = try await login("alice@example.com", "nope")
      _ = try await login("alice@example.com", "nope")
      let limited = try await login("alice@example.com", "Alice-Passw0rd!")
      #expect(limited.status == .tooManyRequests)
      #expect(limited.json["error"] == .string("too_many_attempts"))
    }
  }

  @Test func mfaRequiredThenOTP() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let first = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
          "client_id": .string("native-client-id"), "username": .string("bob@example.com"),
          "password": .string("Bob-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
        ])
      #expect(first.status == .forbidden)
      #expect(first.json["error"] == .string("mfa_required"))
      let mfaToken = try #require(first.json["mfa_token"])
      func verify(_ otp: String) async throws -> TestResponse {
        try await client.postJSON(
          "/oauth/token",
          [
            "grant_type": .string("http://auth0.com/oauth/grant-type/mfa-otp"),
            "client_id": .string("native-client-id"), "mfa_token": mfaToken, "otp": .string(otp),
          ])
      }
      #expect(try await verify("000000").json["error_description"] == .string("Invalid otp_code."))
      let code = try #require(TOTP(base32Secret: "JBSWY3DPEHPK3PXP")).code(at: tenant.clock.now())
      let ok = try await verify(code)
      #expect(ok.status == .ok)
      #expect(ok.json["id_token"] != nil)
    }
  }
}
