public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario

/// `server_configuration` — the provider's discovery document and JWKS, judged as the OpenID
/// conformance suite judges them before every module, or as its Config OP plan does.
public struct ServerConfigurationAction: Action {
  static let checks = Parameter<String>(
    "checks", .oneOf(["module", "config_plan", "rp_logout_plan"]),
    summary:
      "`module` (default): what every module of the suite requires before it starts; `config_plan`: the Config OP "
      + "plan's discovery checks; `rp_logout_plan`: the RP-Initiated Logout plan's."
  )
  static let clientAuthentication = Parameter<String>(
    "client_authentication", .oneOf(["client_secret_basic", "client_secret_post", "none"]),
    summary:
      "With `module`: the client authentication the module uses, which discovery must admit (default client_secret_basic)."
  )

  public static let signature = ActionSignature(
    name: "server_configuration",
    summary: "Check the provider's discovery document and JWKS as the OpenID conformance suite does.",
    declaring: [Self.checks, Self.clientAuthentication],
    results: .closed([
      ResultField("discovery", "The discovery document.", type: .any),
      ResultField("jwks", "The JWK set at its `jwks_uri` (null with `rp_logout_plan`, which reads none).", type: .any),
      ResultField("url", "Where the discovery document was fetched."),
      ResultField("status", "The discovery document's HTTP status."),
      ResultField("content_type", "The discovery document's Content-Type."),
    ]))

  public static let documentation = """
    Fetches the discovery document (`.well-known/openid-configuration` of the issuer, or of the
    base URL on `mock` and `auth0` tenants) and the JWKS it names, and checks them as the OpenID
    Foundation's conformance suite does, each rule a finding named by the suite's condition and
    the clause, at the suite's severity (an error fails the step, a warning is reported):

    - `checks: module` — what every module's `configure()` requires: `issuer`,
      `authorization_endpoint` and `token_endpoint` URLs, a `jwks_uri` that serves a JWK set, a
      `userinfo_endpoint` ("mandatory for certification"; without these the step fails at once);
      the JWKS with no private or symmetric key material, well formed and usable keys, each with a
      distinct `kid` (`ValidateJwksSequence`, `CheckForKeyIdInServerJWKs`,
      `CheckDistinctKeyIdValueInServerJWKs`); and `token_endpoint_auth_methods_supported` admitting
      `client_authentication` (`EnsureServerConfigurationSupportsClientSecretBasic`/`…Post`).
    - `checks: config_plan` — the module `oidcc-discovery-endpoint-verification`: status 200 and
      JSON, the response and subject types, RS256 listed, every `*_endpoint` and the `jwks_uri`
      over https, an issuer that is where the document was fetched from and a valid https URL,
      member types, unknown members (warning), `claims_supported` (warning), `scopes_supported`
      with `openid`, scope and locale syntax, `code_challenge_methods_supported`, the JWKS.
    - `checks: rp_logout_plan` — the module `oidcc-rp-initiated-logout-discovery-endpoint-verification`:
      every `*_endpoint` over https (`CheckDiscEndpointAllEndpointsAreHttps`) and an
      `end_session_endpoint` that is an https URL (`CheckDiscEndSessionEndpoint`).

    The result holds the documents, for the steps after it.
    """

  public static let example = """
    scenario: The provider's configuration is what the conformance suite requires
    steps:
      - id: configuration
        server_configuration: {}
        expect:
          discovery.issuer: ${{ tenant.issuer }}
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: server_configuration takes a known set of checks
      steps:
        - id: fails
          server_configuration: { checks: "${{ 'all' }}" }
      """)

  public static let traits = ActionTraits(failures: [.flow, .environment, .invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let checks = try input[Self.checks] ?? "module"
    let tenant = context.tenant
    let url =
      tenant.kind == .oidc
      ? ProviderMetadata.discoveryURL(issuer: tenant.issuer) : tenant.baseURL + ".well-known/openid-configuration"
    let response = try await Self.get(url, context: context)
    guard let document = response.jsonValue, let members = document.objectValue else {
      throw .flow(ServerConfigurationMessages.notJSON(url, status: response.status))
    }
    let discovery = ServerConfigurationRules.Discovery(
      url: url, status: response.status, contentType: response.headers["Content-Type"], members: members)
    let missing = checks == "module" ? ServerConfigurationRules.required(discovery) : []
    guard missing.isEmpty else { throw .flow(missing.joined(separator: "; ")) }
    var result: [String: Value] = [
      "discovery": document, "jwks": .null, "url": .string(url), "status": .int(response.status),
      "content_type": response.headers["Content-Type"].map(Value.string) ?? .null,
    ]
    // The RP-Initiated Logout plan's discovery module reads the document only, no JWKS.
    if checks == "rp_logout_plan" {
      context.report(ServerConfigurationRules.rpLogoutPlan(discovery))
      return .success(.object(result))
    }
    guard let jwksURL = ServerConfigurationRules.url(members["jwks_uri"]) else {
      throw .flow(ServerConfigurationMessages.noJWKS)
    }
    let jwksResponse = try await Self.get(jwksURL, context: context)
    guard let jwks = jwksResponse.jsonValue, jwks.objectValue != nil else {
      throw .flow(ServerConfigurationMessages.notJSON(jwksURL, status: jwksResponse.status))
    }
    if checks == "config_plan" {
      context.report(ServerConfigurationRules.configPlan(discovery, jwks: jwks))
    } else {
      let method = try input[Self.clientAuthentication] ?? "client_secret_basic"
      context.report(ServerConfigurationRules.configure(discovery, jwks: jwks, clientAuthentication: method))
    }
    result["jwks"] = jwks
    return .success(.object(result))
  }

  private static func get(_ url: String, context: ActionContext) async throws(ActionError) -> HTTPResponse {
    do {
      return try await context.transport.send(
        HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"]))
    } catch {
      throw .environment(ServerConfigurationMessages.unreachable(url, error.message))
    }
  }
}

/// The messages of `server_configuration`.
enum ServerConfigurationMessages {
  static func notJSON(_ url: String, status: Int) -> String {
    "\(SensitiveData.maskURL(url)) answered HTTP \(status) without a JSON object (GetDynamicServerConfiguration, "
      + "FetchServerKeys)"
  }
  static func unreachable(_ url: String, _ detail: String) -> String {
    "\(SensitiveData.maskURL(url)) could not be fetched: \(detail)"
  }
  static let noJWKS = "the discovery document has no jwks_uri (FetchServerKeys, OpenID Connect Discovery §3)"
}
