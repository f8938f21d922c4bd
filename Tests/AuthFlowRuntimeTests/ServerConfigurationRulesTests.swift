import AuthFlowCore
import AuthFlowScenario
import Testing

@testable import AuthFlowRuntime

/// The Config OP plan's discovery checks and what every module requires, each a mutation of a
/// conforming document that must be caught by the condition the OpenID conformance suite names,
/// at its severity — and the conforming document caught by none.
@Suite struct ServerConfigurationRulesTests {
  static let url = "https://op.example.com/.well-known/openid-configuration"
  static let conforming: [String: Value] = [
    "issuer": "https://op.example.com",
    "authorization_endpoint": "https://op.example.com/authorize",
    "token_endpoint": "https://op.example.com/token",
    "userinfo_endpoint": "https://op.example.com/userinfo",
    "jwks_uri": "https://op.example.com/jwks",
    "response_types_supported": ["code", "id_token", "id_token token"],
    "subject_types_supported": ["public"],
    "id_token_signing_alg_values_supported": ["RS256", "ES256"],
    "scopes_supported": ["openid", "email", "profile"],
    "claims_supported": ["sub", "email"],
    "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
    "code_challenge_methods_supported": ["S256"],
  ]
  static let jwks: Value = [
    "keys": [
      [
        "kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256", "e": "AQAB",
        "n":
          "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw",
      ]
    ]
  ]

  static func findings(_ members: [String: Value], url: String = Self.url, status: Int = 200) -> [ProtocolFinding] {
    ServerConfigurationRules.configPlan(
      .init(url: url, status: status, contentType: "application/json", members: members), jwks: jwks)
  }

  @Test func aConformingDocumentPasses() {
    #expect(Self.findings(Self.conforming).isEmpty, "\(Self.findings(Self.conforming).map(\.text))")
    let discovery = ServerConfigurationRules.Discovery(
      url: Self.url, status: 200, contentType: "application/json", members: Self.conforming)
    #expect(ServerConfigurationRules.required(discovery).isEmpty)
    #expect(
      ServerConfigurationRules.configure(discovery, jwks: Self.jwks, clientAuthentication: "client_secret_post").isEmpty
    )
  }

  struct Departure: Sendable, CustomStringConvertible {
    var member: String
    var value: Value
    var condition: String
    var severity: CheckSeverity = .error
    var description: String { "\(member) → \(condition)" }
  }

  static let departures = [
    Departure(member: "issuer", value: "https://other.example.com", condition: "CheckDiscEndpointIssuer"),
    Departure(member: "issuer", value: "https://op.example.com?x=1", condition: "CheckDiscEndpointIssuerIsValidUrl"),
    Departure(
      member: "token_endpoint", value: "http://op.example.com/token", condition: "CheckDiscEndpointTokenEndpoint"),
    Departure(member: "authorization_endpoint", value: .null, condition: "CheckDiscEndpointAuthorizationEndpoint"),
    Departure(
      member: "userinfo_endpoint", value: .null, condition: "CheckDiscEndpointUserinfoEndpoint", severity: .warning),
    Departure(member: "jwks_uri", value: "http://op.example.com/jwks", condition: "CheckJwksUri"),
    Departure(
      member: "response_types_supported", value: ["token"], condition: "OIDCCCheckDiscEndpointResponseTypesSupported"),
    Departure(
      member: "subject_types_supported", value: ["secret"], condition: "CheckDiscEndpointSubjectTypesSupported"),
    Departure(
      member: "id_token_signing_alg_values_supported", value: ["ES256"],
      condition: "OIDCCCheckDiscEndpointIdTokenSigningAlgValuesSupported"),
    Departure(
      member: "scopes_supported", value: ["email"], condition: "CheckDiscEndpointScopesSupportedContainsOpenId"),
    Departure(
      member: "claims_supported", value: .null, condition: "OIDCCCheckDiscEndpointClaimsSupported", severity: .warning),
    Departure(
      member: "x_vendor_extension", value: true, condition: "CheckForUnexpectedParametersInServerMetadata",
      severity: .warning),
    Departure(member: "claims_parameter_supported", value: "yes", condition: "ValidateServerMetadataAgainstSchema"),
    Departure(
      member: "request_object_signing_alg_values_supported", value: ["ES256"],
      condition: "CheckDiscEndpointRequestObjectSigningAlgValuesSupportedIncludesRS256", severity: .warning),
  ]

  @Test("each departure is caught by the suite's condition at its severity", arguments: departures)
  func departure(_ departure: Departure) {
    var members = Self.conforming
    if departure.value.isNull {
      members.removeValue(forKey: departure.member)
    } else {
      members[departure.member] = departure.value
    }
    let all = Self.findings(members)
    let found = all.filter { $0.condition == departure.condition }
    #expect(!found.isEmpty, "\(all.map(\.text))")
    #expect(found.allSatisfy { $0.severity == departure.severity }, "\(found.map(\.text))")
  }

  @Test func theDocumentItselfIsJudged() {
    #expect(
      Self.findings(Self.conforming, status: 203).contains {
        $0.condition == "EnsureDiscoveryEndpointResponseStatusCodeIs200"
      })
    let plain = Self.findings(Self.conforming, url: "http://op.example.com/.well-known/openid-configuration")
    #expect(plain.contains { $0.condition == "CheckDiscEndpointDiscoveryUrl" })
    #expect(plain.contains { $0.condition == "CheckDiscEndpointIssuer" })
  }

  @Test func whatEveryModuleRequires() {
    var members = Self.conforming
    members.removeValue(forKey: "userinfo_endpoint")
    members["token_endpoint"] = "not a url"
    let missing = ServerConfigurationRules.required(
      .init(url: Self.url, status: 200, contentType: "application/json", members: members))
    #expect(missing.count == 2, "\(missing)")
    #expect(missing.contains { $0.contains("SetProtectedResourceUrlToUserInfoEndpoint") })
    members = Self.conforming
    members["token_endpoint_auth_methods_supported"] = ["private_key_jwt"]
    let discovery = ServerConfigurationRules.Discovery(
      url: Self.url, status: 200, contentType: "application/json", members: members)
    #expect(
      ServerConfigurationRules.configure(discovery, jwks: Self.jwks, clientAuthentication: "client_secret_basic").map(
        \.condition) == ["EnsureServerConfigurationSupportsClientSecretBasic"])
    let privateKey: Value = ["keys": [["kty": "RSA", "kid": "k1", "n": "AQAB", "e": "AQAB", "d": "AQAB"]]]
    #expect(
      ServerConfigurationRules.configure(
        .init(url: Self.url, status: 200, contentType: "application/json", members: Self.conforming),
        jwks: privateKey, clientAuthentication: "client_secret_basic"
      ).contains { $0.severity == .error })
  }
}
