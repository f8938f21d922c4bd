import AuthFlowCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

@Suite struct DBConnectionTests {
  static func signupBody(
    email: String = "new.user@example.com", password: String = "Str0ng-Passw0rd!"
  ) -> [String: Value] {
    [
      "client_id": .string("native-client-id"), "email": .string(email), "password": .string(password),
      "connection": .string("Username-Password-Authentication"),
    ]
  }

  @Test func signupCreatesAUserWhoCanLogInDirectlyAndThroughUniversalLogin() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var body = Self.signupBody()
      body["username"] = .string("newuser")
      body["given_name"] = .string("New")
      body["user_metadata"] = .object(["color": .string("green")])
      let response = try await client.postJSON("/dbconnections/signup", body)
      #expect(response.status == .ok)
      #expect(response.json["email"] == .string("new.user@example.com"))
      #expect(response.json["email_verified"] == .bool(false))
      #expect(response.json["username"] == .string("newuser"))
      let id = try #require(response.json["_id"]?.stringValue)
      #expect(id.count == 24)
      let login = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
          "client_id": .string("native-client-id"), "username": .string("new.user@example.com"),
          "password": .string("Str0ng-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
        ])
      #expect(login.status == .ok, "\(login.text)")
      var browser = Browser(client)
      let parameters = AuthorizeParameters()
      let callback = try await browser.login(parameters, email: "new.user@example.com", password: "Str0ng-Passw0rd!")
      let code = try #require(items(of: callback)["code"])
      let exchanged = try await client.exchange(code: code, verifier: parameters.verifier)
      #expect(exchanged.status == .ok)
    }
  }

  @Test func signupAcceptsFormBodies() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postForm(
        "/dbconnections/signup",
        [
          ("client_id", "native-client-id"), ("email", "form@example.com"), ("password", "Str0ng-Passw0rd!"),
          ("connection", "Username-Password-Authentication"),
        ])
      #expect(response.status == .ok)
      #expect(response.json["email"] == .string("form@example.com"))
    }
  }

  @Test func existingUserIsUserExistsInTheLegacyEnvelope() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON("/dbconnections/signup", Self.signupBody(email: "alice@example.com"))
      #expect(response.status == .badRequest)
      #expect(
        response.json == [
          "name": .string("BadRequestError"), "code": .string("user_exists"),
          "description": .string("The user already exists."), "statusCode": .int(400),
        ])
    }
  }

  @Test func enumerationProtectionAnswersInvalidSignup() async throws {
    let tenant = try MockHarness.tenant { $0.settings.signupEnumerationProtection = true }
    try await MockHarness.test(tenant) { client in
      let response = try await client.postJSON("/dbconnections/signup", Self.signupBody(email: "alice@example.com"))
      #expect(response.json["code"] == .string("invalid_signup"))
      #expect(response.json["description"] == .string("Invalid sign up"))
    }
  }

  @Test func weakPasswordIsPasswordStrengthErrorWithRulesAndPolicy() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON("/dbconnections/signup", Self.signupBody(password: "weakpass"))
      #expect(response.status == .badRequest)
      #expect(response.json["name"] == .string("PasswordStrengthError"))
      #expect(response.json["code"] == .string("invalid_password"))
      #expect(response.json["statusCode"] == .int(400))
      let description = try #require(response.json["description"]?.objectValue)
      #expect(description["verified"] == .bool(false))
      let rules = try #require(description["rules"]?.arrayValue)
      #expect(rules.first?.objectValue?["code"] == .string("lengthAtLeast"))
      #expect(rules.first?.objectValue?["verified"] == .bool(true))
      #expect(rules.last?.objectValue?["code"] == .string("containsAtLeast"))
      #expect(rules.last?.objectValue?["verified"] == .bool(false))
      let policy = try #require(response.json["policy"]?.stringValue)
      #expect(policy.hasPrefix("* At least 8 characters in length"))
      // The user was not created.
      let again = try await client.postJSON("/dbconnections/signup", Self.signupBody())
      #expect(again.status == .ok)
    }
  }

  @Test func signupValidation() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      var body = Self.signupBody()
      body["client_id"] = nil
      #expect(try await client.postJSON("/dbconnections/signup", body).json["code"] == .string("invalid_request"))
      body = Self.signupBody()
      body["connection"] = .string("github")
      #expect(try await client.postJSON("/dbconnections/signup", body).json["code"] == .string("invalid_connection"))
      body = Self.signupBody(email: "not-an-email")
      #expect(try await client.postJSON("/dbconnections/signup", body).json["code"] == .string("invalid_signup"))
      body = Self.signupBody()
      body["user_metadata"] = .object(["n": .int(1)])
      #expect(try await client.postJSON("/dbconnections/signup", body).json["code"] == .string("invalid_signup"))
      body["user_metadata"] = .object(
        Dictionary(uniqueKeysWithValues: (0..<11).map { ("k\($0)", Value.string("v")) }))
      #expect(try await client.postJSON("/dbconnections/signup", body).status == .badRequest)
      let malformed = try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: [.contentType: "application/json"],
        body: .init(string: "{nope"))
      #expect(malformed.status == .badRequest)
      #expect(malformed.json["name"] == .string("BadRequestError"))
    }
  }

  @Test func changePasswordAnswersPlainTextWithRateLimitHeadersAndMailsAResetLink() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let response = try await client.postJSON(
        "/dbconnections/change_password",
        [
          "client_id": .string("native-client-id"), "email": .string("alice@example.com"),
          "connection": .string("Username-Password-Authentication"),
        ])
      #expect(response.status == .ok)
      #expect(response.text == "We've just sent you an email to reset your password.")
      #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
      #expect(response.headers.contains { $0.name.canonicalName == "x-ratelimit-limit" })
      #expect(response.headers.contains { $0.name.canonicalName == "x-ratelimit-remaining" })
      #expect(response.headers.contains { $0.name.canonicalName == "x-ratelimit-reset" })
      let outbox = try await client.execute(uri: "/__mock/outbox?to=alice@example.com", method: .get).json
      let link = try #require(outbox["messages"]?.arrayValue?.last?.objectValue?["link"]?.stringValue)
      let path = String(link.dropFirst(MockHarness.baseURL.count - 1))
      let form = try await client.execute(uri: path, method: .get)
      #expect(form.status == .ok)
      let weak = try await client.postForm(path, [("password", "short")])
      #expect(weak.status == .badRequest)
      let changed = try await client.postForm(path, [("password", "N3w-Passw0rd!")])
      #expect(changed.status == .ok)
      #expect(try await client.postForm(path, [("password", "N3w-Passw0rd!")]).status == .badRequest, "single use")
      let login = try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string("http://auth0.com/oauth/grant-type/password-realm"),
          "client_id": .string("native-client-id"), "username": .string("alice@example.com"),
          "password": .string("N3w-Passw0rd!"), "realm": .string("Username-Password-Authentication"),
        ])
      #expect(login.status == .ok)
      // Unknown users get the same answer and no email.
      let unknown = try await client.postJSON(
        "/dbconnections/change_password",
        ["email": .string("nobody@example.com"), "connection": .string("Username-Password-Authentication")])
      #expect(unknown.status == .ok)
      let none = try await client.execute(uri: "/__mock/outbox?to=nobody@example.com", method: .get).json
      #expect(none["messages"]?.arrayValue?.isEmpty == true)
    }
  }
}

/// Password Dictionary and Password History at `/dbconnections/signup` and the reset form.
@Suite struct PasswordRulesTests {
  static func tenant() throws -> MockTenant {
    try MockHarness.tenant {
      $0.settings.passwordDictionary = true
      $0.settings.passwordDictionaryWords = ["Tenant-Secret-9"]
      $0.settings.passwordHistorySize = 3
      $0.settings.passwordNoPersonalInfo = false  // Alice's passwords contain "alice"
    }
  }

  @Test func signupRefusesDictionaryPasswordsWithTheLegacyEnvelope() async throws {
    try await MockHarness.test(try Self.tenant()) { client in
      for password in ["P@ssw0rd!", "PASSWORD123!", "tenant-secret-9"] {
        let response = try await client.postJSON(
          "/dbconnections/signup", DBConnectionTests.signupBody(email: "dict@example.com", password: password))
        #expect(response.status == .badRequest)
        #expect(
          response.json == [
            "name": .string("PasswordDictionaryError"), "code": .string("password_dictionary_error"),
            "description": .string("Password is too common."), "message": .string("Password is too common."),
            "statusCode": .int(400),
          ], "\(password)")
      }
      // Nothing was created.
      let ok = try await client.postJSON(
        "/dbconnections/signup", DBConnectionTests.signupBody(email: "dict@example.com", password: "Unc0mmon-Phrase!"))
      #expect(ok.status == .ok)
    }
  }

  @Test func dictionaryIsOffUnlessTheTenantTurnsItOn() async throws {
    let tenant = try MockHarness.tenant { $0.settings.passwordDictionary = false }
    try await MockHarness.test(tenant) { client in
      let response = try await client.postJSON(
        "/dbconnections/signup", DBConnectionTests.signupBody(email: "plain@example.com", password: "P@ssw0rd!"))
      #expect(response.status == .ok)
    }
  }

  /// change_password → the emailed link → the reset form.
  static func reset(
    _ client: any TestClientProtocol, tenant: MockTenant, to password: String
  ) async throws -> TestResponse {
    let sent = try await client.postJSON(
      "/dbconnections/change_password",
      ["email": .string("alice@example.com"), "connection": .string("Username-Password-Authentication")])
    #expect(sent.status == .ok)
    let link = try #require(tenant.read({ $0.outbox.list(to: "alice@example.com") }).last?.link)
    let path = String(link.dropFirst(MockHarness.baseURL.count - 1))
    return try await client.postForm(path, [("password", password)])
  }

  @Test func changePasswordRefusesTheUsersRecentPasswords() async throws {
    let tenant = try Self.tenant()
    try await MockHarness.test(tenant) { client in
      let same = try await Self.reset(client, tenant: tenant, to: "Alice-Passw0rd!")
      #expect(same.status == .badRequest)
      #expect(same.text.contains("Password has previously been used."))
      let common = try await Self.reset(client, tenant: tenant, to: "Welcome123!")
      #expect(common.text.contains("Password is too common."))
      for password in ["Second-Passw0rd!", "Third-Passw0rd!"] {
        #expect(try await Self.reset(client, tenant: tenant, to: password).status == .ok)
      }
      // Three remembered: current, previous and the original.
      #expect(try await Self.reset(client, tenant: tenant, to: "Alice-Passw0rd!").status == .badRequest)
      #expect(try await Self.reset(client, tenant: tenant, to: "Fourth-Passw0rd!").status == .ok)
      #expect(try await Self.reset(client, tenant: tenant, to: "Alice-Passw0rd!").status == .ok)
    }
  }
}
