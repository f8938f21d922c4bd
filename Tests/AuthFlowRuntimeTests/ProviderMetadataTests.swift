import AuthFlowCore
import AuthFlowRuntime
import Testing

/// Discovery documents: parsing, the OpenID defaults for omitted members, capabilities with their
/// evidence, and how paths map to discovered endpoints.
@Suite("Provider metadata and capability discovery")
struct ProviderMetadataTests {
  /// What django-oauth-toolkit serves (docs/real-tenants.md, the conformance run): no grant_types_supported.
  static let djangoLike: Value = [
    "issuer": "http://127.0.0.1:8100/o",
    "authorization_endpoint": "http://127.0.0.1:8100/o/authorize/",
    "token_endpoint": "http://127.0.0.1:8100/o/token/",
    "userinfo_endpoint": "http://127.0.0.1:8100/o/userinfo/",
    "jwks_uri": "http://127.0.0.1:8100/o/.well-known/jwks.json",
    "end_session_endpoint": "http://127.0.0.1:8100/o/logout/",
    "response_types_supported": ["code", "token", "id_token", "id_token token", "code token"],
    "code_challenge_methods_supported": ["plain", "S256"],
    "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
  ]

  @Test("a discovery document parses; omitted lists stay nil and the OpenID defaults apply")
  func parses() throws {
    let metadata = try ProviderMetadata.parse(Self.djangoLike).get()
    #expect(metadata.issuer == "http://127.0.0.1:8100/o")
    #expect(metadata.tokenEndpoint == "http://127.0.0.1:8100/o/token/")
    #expect(metadata.revocationEndpoint == nil)
    #expect(metadata.grantTypesSupported == nil)
    #expect(metadata.effectiveGrantTypes == ["authorization_code", "implicit"])
    #expect(ProviderMetadata.discoveryURL(issuer: "http://h/o/") == "http://h/o/.well-known/openid-configuration")
    #expect(ProviderMetadata.discoveryURL(issuer: "http://h/o") == "http://h/o/.well-known/openid-configuration")
  }

  @Test("documents that are not discovery documents are rejected with the reason")
  func rejects() {
    #expect(ProviderMetadata.parse(["keys": []]) == .failure(.noIssuer))
    #expect(ProviderMetadata.parse(["a", "b"]) == .failure(.notAnObject))
    #expect(
      ProviderMetadata.parse(["issuer": "https://x/", "grant_types_supported": "code"])
        == .failure(.wrongType("grant_types_supported", expected: "an array of strings")))
    #expect(
      ProviderMetadata.parse(["issuer": "https://x/", "token_endpoint": 3])
        == .failure(.wrongType("token_endpoint", expected: "a URL")))
  }

  /// A hostile or misconfigured provider whose https discovery document sends the token endpoint
  /// (or any other) to plain HTTP would have the run post codes and client secrets in the clear.
  /// Such a document, and an endpoint that is not an absolute http(s) URL, is refused; an http
  /// issuer on a test machine (django-oauth-toolkit on loopback) keeps its http endpoints.
  @Test("an https provider's plain-HTTP endpoint, and an endpoint that is no http(s) URL, are refused")
  func refusesDowngradedEndpoints() throws {
    for name in ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint"] {
      let downgraded = ProviderMetadata.parse([
        "issuer": "https://idp.example.com/", .init(name): "http://idp.example.com/x",
      ])
      #expect(downgraded == .failure(.insecureEndpoint(name, url: "http://idp.example.com/x")), "\(name)")
      #expect(
        ProviderMetadata.parse(["issuer": "HTTPS://idp.example.com/", .init(name): "HTTP://idp.example.com/x"])
          == .failure(.insecureEndpoint(name, url: "HTTP://idp.example.com/x")), "\(name)")
    }
    guard
      case .failure(let problem) = ProviderMetadata.parse(
        ["issuer": "https://idp.example.com/", "token_endpoint": "http://idp.example.com/token?key=s3cr3t"])
    else {
      Issue.record("the downgrade was accepted")
      return
    }
    #expect(problem.description.contains("in the clear"))
    #expect(!problem.description.contains("s3cr3t"), "the URL is masked: \(problem.description)")
    for notURL in ["/oauth/token", "javascript:alert(1)", "file:///etc/passwd", "https://", "ftp://idp.example.com/t"] {
      #expect(
        ProviderMetadata.parse(["issuer": "https://idp.example.com/", "token_endpoint": .string(notURL)])
          == .failure(.wrongType("token_endpoint", expected: "an absolute http or https URL")), "\(notURL)")
    }
    let secure = try ProviderMetadata.parse(
      ["issuer": "https://idp.example.com/", "token_endpoint": "https://login.idp.example.com/token"]
    ).get()
    #expect(secure.tokenEndpoint == "https://login.idp.example.com/token")
    let local = try ProviderMetadata.parse(Self.djangoLike).get()
    #expect(local.tokenEndpoint?.hasPrefix("http://") == true)
  }

  @Test("capabilities with evidence; the OpenID default grant types say so; absences say what lacks them")
  func capabilities() throws {
    let discovered = CapabilityDiscovery(try ProviderMetadata.parse(Self.djangoLike).get())
    let defaultGrants = "discovery: grant_types_supported is absent; its OpenID default (authorization_code, implicit)"
    #expect(discovered.evidence["authorization_code"] == "\(defaultGrants) contains authorization_code")
    #expect(discovered.evidence["implicit"] == "\(defaultGrants) contains implicit")
    #expect(discovered.absence["refresh_token"] == "\(defaultGrants) lacks refresh_token")
    #expect(discovered.evidence["pkce"] == "discovery: code_challenge_methods_supported contains S256")
    #expect(discovered.evidence["userinfo"] == "discovery: userinfo_endpoint is http://127.0.0.1:8100/o/userinfo/")
    #expect(discovered.absence["revocation"] == "discovery: revocation_endpoint is absent")
    #expect(discovered.capabilities == ["authorization_code", "implicit", "pkce", "userinfo", "logout", "discovery"])
  }

  @Test("pkce needs S256: plain alone is not enough")
  func pkceNeedsS256() throws {
    var document = Self.djangoLike.objectValue ?? [:]
    document["code_challenge_methods_supported"] = ["plain"]
    document["grant_types_supported"] = ["authorization_code", "refresh_token", "password"]
    let discovered = CapabilityDiscovery(try ProviderMetadata.parse(.object(document)).get())
    #expect(discovered.absence["pkce"] == "discovery: code_challenge_methods_supported lacks S256")
    #expect(discovered.evidence["refresh_token"] == "discovery: grant_types_supported contains refresh_token")
    #expect(discovered.evidence["password"] == "discovery: grant_types_supported contains password")
    #expect(discovered.absence["client_credentials"] == "discovery: grant_types_supported lacks client_credentials")
    #expect(discovered.evidence["implicit"] == "discovery: response_types_supported contains id_token")
  }

  @Test("Auth0 extension grants count only on auth0 tenants")
  func auth0Extensions() throws {
    var document = Self.djangoLike.objectValue ?? [:]
    document["grant_types_supported"] = ["authorization_code", "http://auth0.com/oauth/grant-type/passwordless/otp"]
    let metadata = try ProviderMetadata.parse(.object(document)).get()
    #expect(!CapabilityDiscovery(metadata).capabilities.contains("passwordless"))
    #expect(CapabilityDiscovery(metadata, auth0Extensions: true).capabilities.contains("passwordless"))
  }

  @Test("standard paths map to discovered endpoints; Auth0-only paths do not exist")
  func endpoints() throws {
    let endpoints = TenantEndpoints.discovered(
      try ProviderMetadata.parse(Self.djangoLike).get(), baseURL: "http://127.0.0.1:8100/o")
    #expect(try endpoints.url(forPath: "oauth/token").get() == "http://127.0.0.1:8100/o/token/")
    #expect(try endpoints.url(forPath: "/authorize").get() == "http://127.0.0.1:8100/o/authorize/")
    #expect(try endpoints.url(forPath: "userinfo?a=1").get() == "http://127.0.0.1:8100/o/userinfo/?a=1")
    #expect(
      endpoints.url(forPath: "oauth/revoke")
        == .failure(EndpointUnavailable(path: "oauth/revoke", member: "revocation_endpoint", capability: "revocation")))
    #expect(
      endpoints.url(forPath: "dbconnections/signup")
        == .failure(EndpointUnavailable(path: "dbconnections/signup", member: nil, capability: "signup")))
    let auth0 = TenantEndpoints.auth0(baseURL: "https://t.example.com")
    #expect(try auth0.url(forPath: "dbconnections/signup").get() == "https://t.example.com/dbconnections/signup")
    #expect(try auth0.url(forPath: "oauth/token").get() == "https://t.example.com/oauth/token")
  }
}
