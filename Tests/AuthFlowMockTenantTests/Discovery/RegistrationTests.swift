import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// `/oidc/register` (RFC 7591): off by default, as on Auth0; on, its clients work at
/// `/authorize` and `/oauth/token`.
@Suite struct RegistrationTests {
  static func enabled() throws -> MockTenant {
    try MockHarness.tenant { $0.settings.dynamicClientRegistration = true }
  }

  static let callback = "https://thirdparty.example.com/callback"

  @Test func registrationIsOffByDefault() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      let response = try await client.postJSON(
        "/oidc/register", ["redirect_uris": .array([.string(Self.callback)]), "client_name": .string("X")])
      #expect(response.status == .forbidden)
      #expect(response.json["error"] == .string("access_denied"))
      #expect(
        response.json["error_description"] == .string("Dynamic client registration is not enabled for this tenant."))
      #expect(tenant.read { $0.registeredClients.count } == 0)
    }
  }

  @Test func theBuiltInFixtureKeepsItOff() throws {
    #expect(MockHarness.fixture.settings.dynamicClientRegistration == false)
  }

  @Test func aConfidentialClientRegistersAndLogsInWithBasicAuth() async throws {
    try await MockHarness.test(try Self.enabled()) { client in
      let registered = try await client.postJSON(
        "/oidc/register",
        ["client_name": .string("Third Party <b>"), "redirect_uris": .array([.string(Self.callback)])])
      #expect(registered.status == .created)
      let clientID = try #require(registered.json["client_id"]?.stringValue)
      let secret = try #require(registered.json["client_secret"]?.stringValue)
      #expect(registered.json["token_endpoint_auth_method"] == .string("client_secret_basic"))
      #expect(registered.json["client_secret_expires_at"] == .int(0))
      #expect(registered.json["redirect_uris"] == .array([.string(Self.callback)]))

      var browser = Browser(client)
      var parameters = AuthorizeParameters()
      parameters.clientID = clientID
      parameters.redirectURI = Self.callback
      let authorize = try await browser.get(parameters.uri)
      let loginPage = try await browser.get(try #require(authorize.location))
      #expect(loginPage.text.contains("Third Party &lt;b&gt;"))
      let callback = try await browser.login(parameters, email: "alice@example.com", password: "Alice-Passw0rd!")
      let code = try #require(items(of: callback)["code"])
      let body: [String: Value] = [
        "grant_type": .string("authorization_code"), "code": .string(code),
        "code_verifier": .string(parameters.verifier), "redirect_uri": .string(Self.callback),
      ]
      let noSecret = try await client.postJSON("/oauth/token", body.merging(["client_id": .string(clientID)]) { $1 })
      #expect(noSecret.status == .unauthorized)
      let basic = Data("\(clientID):\(secret)".utf8).base64EncodedString()
      // Client authentication fails before the code is looked at: the code is still good.
      let tokens = try await client.postJSON("/oauth/token", body, headers: [.authorization: "Basic \(basic)"])
      #expect(tokens.status == .ok)
      let reused = try await client.postJSON("/oauth/token", body, headers: [.authorization: "Basic \(basic)"])
      #expect(reused.status == .forbidden)
      #expect(reused.json["error"] == .string("invalid_grant"))
      let idToken = try CompactJWS(parsing: try #require(tokens.json["id_token"]?.stringValue))
      #expect(idToken.claims["aud"] == .string(clientID))
    }
  }

  @Test func aPublicClientHasNoSecretAndOnlyItsGrants() async throws {
    try await MockHarness.test(try Self.enabled()) { client in
      let registered = try await client.postJSON(
        "/oidc/register",
        [
          "redirect_uris": .array([.string("com.example.thirdparty://callback")]),
          "token_endpoint_auth_method": .string("none"), "grant_types": .array([.string("authorization_code")]),
        ])
      #expect(registered.status == .created)
      #expect(registered.json["client_secret"] == nil)
      let clientID = try #require(registered.json["client_id"]?.stringValue)
      let refresh = try await client.postJSON(
        "/oauth/token",
        ["grant_type": .string("refresh_token"), "client_id": .string(clientID), "refresh_token": .string("x")])
      #expect(refresh.status == .forbidden)
      #expect(refresh.json["error"] == .string("unauthorized_client"))
      var parameters = AuthorizeParameters()
      parameters.clientID = clientID
      parameters.redirectURI = "https://app.example.com/callback"
      let foreignCallback = try await client.execute(uri: parameters.uri, method: .get)
      #expect(foreignCallback.status == .badRequest)
      #expect(foreignCallback.location == nil)
    }
  }

  @Test func redirectURIsAndMetadataAreValidated() async throws {
    let tenant = try Self.enabled()
    try await MockHarness.test(tenant) { client in
      let badURIs: [Value] = [
        .array([]), .array([.string("javascript:alert(1)")]), .array([.string("http://evil.example.com/cb")]),
        .array([.string("https://app.example.com/cb#fragment")]), .array([.string("not a url")]),
        .array([.int(3)]), .array([.string("data:text/html,hi")]), .null,
      ]
      for uris in badURIs {
        let response = try await client.postJSON("/oidc/register", ["redirect_uris": uris])
        #expect(response.status == .badRequest, "\(uris)")
        #expect(response.json["error"] == .string("invalid_redirect_uri"), "\(uris)")
        #expect(response.json["error_description"] == .string("One or more redirect_uri values are invalid"))
      }
      let loopback = try await client.postJSON(
        "/oidc/register", ["redirect_uris": .array([.string("http://127.0.0.1:8080/cb")])])
      #expect(loopback.status == .created)
      let method = try await client.postJSON(
        "/oidc/register",
        ["redirect_uris": .array([.string(Self.callback)]), "token_endpoint_auth_method": .string("private_key_jwt")])
      #expect(method.json["error"] == .string("invalid_client_metadata"))
      let grants = try await client.postJSON(
        "/oidc/register",
        ["redirect_uris": .array([.string(Self.callback)]), "grant_types": .array([.string("client_credentials")])])
      #expect(grants.status == .badRequest)
      #expect(grants.json["error"] == .string("invalid_client_metadata"))
      let malformed = try await client.execute(
        uri: "/oidc/register", method: .post, headers: [.contentType: "application/json"], body: .init(string: "[1"))
      #expect(malformed.status == .badRequest)
      #expect(tenant.read { $0.registeredClients.count } == 1)
    }
  }

  @Test func registeredClientsAreForgottenOnReset() async throws {
    let tenant = try Self.enabled()
    try await MockHarness.test(tenant) { client in
      let registered = try await client.postJSON(
        "/oidc/register", ["redirect_uris": .array([.string(Self.callback)])])
      let clientID = try #require(registered.json["client_id"]?.stringValue)
      #expect(tenant.client(id: clientID) != nil)
      await tenant.reset()
      #expect(tenant.client(id: clientID) == nil)
    }
  }
}
