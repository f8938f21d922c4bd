import AuthFlowCore
import AuthFlowJOSE
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AuthFlowMockTenant

/// Discovery says what the mock does: every advertised response type, response mode, grant type
/// and token endpoint authentication method is exercised with a real request that succeeds.
@Suite struct DiscoveryConsistencyTests {
  static let legacyCallback = "https://legacy.example.com/mobile"

  static func discovery(_ client: any TestClientProtocol) async throws -> [String: Value] {
    let response = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
    #expect(response.status == .ok)
    return response.json
  }

  static func advertised(_ document: [String: Value], _ key: String) throws -> [String] {
    let items = try #require(document[key]?.arrayValue)
    return items.compactMap(\.stringValue)
  }

  /// `/authorize` for the legacy client (implicit and code) with `responseType` and `mode`, Alice
  /// logged in on the form: the last response (a redirect or the `form_post` page).
  static func authorize(
    _ client: any TestClientProtocol, responseType: String, mode: String?
  ) async throws -> TestResponse {
    var browser = Browser(client)
    var pairs = [
      ("client_id", "legacy-client-id"), ("response_type", responseType), ("redirect_uri", legacyCallback),
      ("state", "state-1"), ("nonce", "nonce-1"), ("scope", "openid"),
    ]
    if let mode { pairs.append(("response_mode", mode)) }
    let uri = "/authorize?" + pairs.map { "\($0.0)=\(escape($0.1))" }.joined(separator: "&")
    let authorize = try await browser.get(uri)
    let loginURL = try #require(authorize.location, "\(authorize.text)")
    #expect(!loginURL.contains("error="), "\(responseType) \(mode ?? "-"): \(loginURL)")
    let page = try await browser.get(loginURL)
    let state = try #require(hiddenField("state", in: page.text), "\(responseType) \(mode ?? "-"): \(page.text)")
    let csrf = try #require(hiddenField("_csrf", in: page.text))
    return try await browser.postForm(
      loginURL,
      [
        ("state", state), ("_csrf", csrf), ("username", SecurityProbe.alice.email),
        ("password", SecurityProbe.alice.password),
      ])
  }

  @Test func everyAdvertisedResponseTypeDeliversWhatItNames() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let types = try Self.advertised(try await Self.discovery(client), "response_types_supported")
      #expect(!types.isEmpty)
      for type in types {
        let response = try await Self.authorize(client, responseType: type, mode: nil)
        let callback = try #require(response.location, "\(type): \(response.text)")
        let delivered = items(of: callback)
        #expect(callback.hasPrefix(Self.legacyCallback), "\(type): \(callback)")
        #expect(delivered["error"] == nil, "\(type): \(callback)")
        for part in type.split(separator: " ") {
          let key = part == "token" ? "access_token" : String(part)
          #expect(delivered[key]?.isEmpty == false, "\(type) delivered no \(key): \(callback)")
        }
        // An ID token issued beside a code or an access token carries its hash (OIDC Core
        // §3.2.2.10, §3.3.2.11), and it matches.
        let parts = Set(type.split(separator: " "))
        guard parts.contains("id_token"), let token = delivered["id_token"] else { continue }
        let claims = try CompactJWS(parsing: token).claims
        for (part, claim, value) in [
          ("code", "c_hash", delivered["code"]), ("token", "at_hash", delivered["access_token"]),
        ]
        where parts.contains(Substring(part)) {
          #expect(
            claims[claim]?.stringValue == value.flatMap { TokenHash.value(of: $0, algorithm: .rs256) },
            "\(type): \(claim)")
        }
      }
    }
  }

  @Test func passwordlessLinksAreRefusedRatherThanAnsweredWithACode() async throws {
    let tenant = try MockHarness.tenant()
    try await MockHarness.test(tenant) { client in
      for send in ["link", "link_ios", "link_android"] {
        let response = try await client.postJSON(
          "/passwordless/start",
          [
            "client_id": .string("native-client-id"), "connection": .string("email"),
            "email": .string("pat@example.com"), "send": .string(send),
          ])
        #expect(response.status == .badRequest, "\(send): \(response.text)")
        #expect(response.json["error"] == .string("bad.request"))
      }
      #expect(tenant.read({ $0.outbox.list(to: "pat@example.com") }).isEmpty)
    }
  }

  @Test func everyAdvertisedResponseModeDelivers() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let modes = try Self.advertised(try await Self.discovery(client), "response_modes_supported")
      #expect(!modes.isEmpty)
      for mode in modes {
        // Tokens never travel in a query: the query mode is walked with the code flow.
        let type = mode == "query" ? "code" : "token"
        let response = try await Self.authorize(client, responseType: type, mode: mode)
        let key = type == "code" ? "code" : "access_token"
        if mode == "form_post" {
          #expect(response.status == .ok, "\(mode): \(response.text)")
          #expect(hiddenField(key, in: response.text)?.isEmpty == false, "\(mode): \(response.text)")
          #expect(response.text.contains(Self.legacyCallback))
        } else {
          let callback = try #require(response.location, "\(mode): \(response.text)")
          #expect(callback.contains(mode == "query" ? "?" : "#"), "\(mode): \(callback)")
          #expect(items(of: callback)[key]?.isEmpty == false, "\(mode): \(callback)")
        }
      }
    }
  }

  @Test func everyAdvertisedTokenEndpointAuthMethodAuthenticates() async throws {
    try await MockHarness.test(try MockHarness.tenant()) { client in
      let methods = try Self.advertised(try await Self.discovery(client), "token_endpoint_auth_methods_supported")
      #expect(!methods.isEmpty)
      let credentials: [String: Value] = [
        "grant_type": .string("client_credentials"), "audience": .string("https://api.example.com"),
      ]
      for method in methods {
        let response: TestResponse
        switch method {
        case "client_secret_post":
          var body = credentials
          body["client_id"] = .string("m2m-client-id")
          body["client_secret"] = .string("m2m-client-secret")
          response = try await client.postJSON("/oauth/token", body)
        case "client_secret_basic":
          let basic = Data("m2m-client-id:m2m-client-secret".utf8).base64EncodedString()
          response = try await client.postJSON("/oauth/token", credentials, headers: [.authorization: "Basic \(basic)"])
        case "none":
          response = try await client.postJSON(
            "/oauth/token", AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, SecurityProbe.alice.password)
          )
        default:
          Issue.record("advertised token endpoint auth method without a walk: \(method)")
          continue
        }
        #expect(response.status == .ok, "\(method): \(response.text)")
        #expect(response.json["access_token"]?.stringValue?.isEmpty == false, "\(method)")
      }
    }
  }

  @Test func everyAdvertisedGrantTypeIsAccepted() async throws {
    // The default tenant plus carol, who has no OOB factor yet (the mfa-oob walk enrols one).
    let tenant = try MFAAPITests.enrolTenant()
    try await MockHarness.test(tenant) { client in
      let grants = try Self.advertised(try await Self.discovery(client), "grant_types_supported")
      #expect(!grants.isEmpty)
      for grant in grants {
        let response = try await Self.walk(grant, client: client, tenant: tenant)
        #expect(response.json["error"] != .string("unsupported_grant_type"), "\(grant): \(response.text)")
        #expect(response.json["error"] != .string("unauthorized_client"), "\(grant): \(response.text)")
        switch grant {
        case TokenRoutes.GrantType.deviceCode, TokenRoutes.GrantType.ciba:
          // Polled before the user decided: the grant is accepted and pending.
          #expect(response.json["error"] == .string("authorization_pending"), "\(grant): \(response.text)")
        default:
          #expect(response.status == .ok, "\(grant): \(response.text)")
          #expect(response.json["access_token"]?.stringValue?.isEmpty == false, "\(grant)")
        }
      }
    }
  }

  /// A real token request with `grant`, prepared as a client of that grant would prepare it.
  static func walk(_ grant: String, client: any TestClientProtocol, tenant: MockTenant) async throws -> TestResponse {
    let native: [String: Value] = ["grant_type": .string(grant), "client_id": .string("native-client-id")]
    switch grant {
    case TokenRoutes.GrantType.authorizationCode:
      var browser = Browser(client)
      let parameters = AuthorizeParameters()
      let code = try await SecurityProbe.code(&browser, parameters)
      return try await client.exchange(code: code, verifier: parameters.verifier)
    case TokenRoutes.GrantType.refreshToken:
      let refresh = try #require(try await SecurityProbe.tokens(client)["refresh_token"]?.stringValue)
      return try await TokenProbe.refresh(client, refresh)
    case TokenRoutes.GrantType.clientCredentials:
      return try await client.postJSON(
        "/oauth/token",
        [
          "grant_type": .string(grant), "client_id": .string("m2m-client-id"),
          "client_secret": .string("m2m-client-secret"), "audience": .string("https://api.example.com"),
        ])
    case TokenRoutes.GrantType.password, TokenRoutes.GrantType.passwordRealm:
      var body = AttackProtectionTests.passwordRealm(SecurityProbe.alice.email, SecurityProbe.alice.password)
      body["grant_type"] = .string(grant)
      return try await client.postJSON("/oauth/token", body)
    case TokenRoutes.GrantType.passwordlessOTP:
      let start = try await client.postJSON(
        "/passwordless/start",
        [
          "client_id": .string("native-client-id"), "connection": .string("email"),
          "email": .string("pat@example.com"), "send": .string("code"),
        ])
      #expect(start.status == .ok, "\(start.text)")
      let code = try await UniversalLoginPasswordlessTests.sentCode(tenant, to: "pat@example.com")
      var body = native
      body["username"] = .string("pat@example.com")
      body["otp"] = .string(code)
      body["realm"] = .string("email")
      return try await client.postJSON("/oauth/token", body)
    case TokenRoutes.GrantType.mfaOTP:
      let token = try await MFAAPITests.bobMFAToken(client)
      return try await client.postJSON(
        "/oauth/token",
        MFAAPITests.grant(
          grant, ["mfa_token": .string(token), "otp": .string(try UniversalLoginMFATests.code(tenant))]))
    case TokenRoutes.GrantType.mfaRecoveryCode:
      let token = try await MFAAPITests.bobMFAToken(client)
      return try await client.postJSON(
        "/oauth/token",
        MFAAPITests.grant(
          grant, ["mfa_token": .string(token), "recovery_code": .string("BOBRECOVERYCODE23456789AB")]))
    case TokenRoutes.GrantType.mfaOOB:
      return try await mfaOOB(client, tenant: tenant)
    case TokenRoutes.GrantType.tokenExchange:
      return try await client.postJSON(
        "/oauth/token", TokenExchangeTests.exchange("apple-authz-code-alice", type: TokenExchangeTests.apple))
    case TokenRoutes.GrantType.webauthn:
      var authenticator = VirtualAuthenticator()
      let started = try await PasskeyTests.register(client, email: "walker@example.com")
      let attestation = authenticator.register(
        rpID: PasskeyTests.rpID, userHandle: started.userHandle, userName: "walker@example.com",
        challenge: started.challenge, origin: PasskeyTests.origin)
      return try await PasskeyTests.token(client, session: started.authSession, response: attestation)
    case TokenRoutes.GrantType.deviceCode:
      let codes = try await DeviceFlowTests.requestCode(client)
      return try await DeviceFlowTests.poll(client, codes.device)
    case TokenRoutes.GrantType.ciba:
      return try await BackchannelTests.poll(client, try await BackchannelTests.requestID(client))
    default:
      Issue.record("advertised grant type without a walk: \(grant)")
      return try await client.postJSON("/oauth/token", native)
    }
  }

  /// carol's MFA login completed by associating an SMS factor: the binding code from the outbox.
  static func mfaOOB(_ client: any TestClientProtocol, tenant: MockTenant) async throws -> TestResponse {
    let token = try await MFAAPITests.bobMFAToken(client, username: "carol@example.com", password: "Carol-Passw0rd!")
    let associate = try await client.postJSON(
      "/mfa/associate",
      [
        "authenticator_types": .array([.string("oob")]), "oob_channels": .array([.string("sms")]),
        "phone_number": .string("+15555550199"),
      ], headers: [.authorization: "Bearer \(token)"])
    let oobCode = try #require(associate.json["oob_code"]?.stringValue, "\(associate.text)")
    let binding = try #require(tenant.read({ $0.outbox.list(to: "+15555550199") }).last?.code)
    return try await client.postJSON(
      "/oauth/token",
      MFAAPITests.grant(
        MFAAPITests.mfaOOB,
        ["mfa_token": .string(token), "oob_code": .string(oobCode), "binding_code": .string(binding)]))
  }
}
