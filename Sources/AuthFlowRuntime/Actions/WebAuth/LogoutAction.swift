public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `logout` — `/v2/logout` through a named browser, as Auth0.swift's Web Auth `clearSession`.
public struct LogoutAction: Action {
  static let returnTo = Parameter<String>("return_to", summary: "Where to return; default the client's `redirect_uri`.")
  static let federated = Parameter<Bool>("federated", summary: "Adds the bare `federated` flag (IdP logout too).")
  static let browser = Parameter<String>("browser", summary: "The named browser whose session ends.")
  static let idTokenHint = Parameter<String>(
    "id_token_hint", summary: "An ID token sent as `id_token_hint` (OpenID logout on `oidc` tenants).")

  public static let signature = ActionSignature(
    name: "logout", summary: "End the SSO session with /v2/logout through the browser.",
    declaring: [Self.returnTo, Self.federated, Self.browser, Self.idTokenHint],
    results: .closed([
      ResultField("logout_url", "The logout URL the browser was sent to."), ResultField("url", "The redirect URL."),
      ResultField("status", "The HTTP status of the last answer."),
      ResultField("pages", "The pages visited."),
      ResultField("page", "When the browser did not reach `return_to`: the page it stopped on."),
    ]))

  public static let documentation = """
    Sends the browser to `v2/logout?returnTo=…&client_id=…` (with a bare `federated` first when
    asked, as the SDK builds it) and stops at the redirect to `returnTo`. The result: `url` (the
    redirect URL), `status`, `pages`. The session cookie is gone afterwards: a `web_auth` with
    `prompt: none` in the same browser gets `login_required`. A `returnTo` the tenant does not
    allow is an `invalid_request` error (the tenant shows an error page); a redirect to `returnTo`
    that carries an `error` parameter is the step's error too (`error.code`, `error.description`),
    never a logout that passed.

    On an `oidc` tenant the browser goes to the discovery document's `end_session_endpoint`
    instead (OpenID Connect RP-Initiated Logout): `client_id`, `post_logout_redirect_uri` (the
    `return_to`) and `id_token_hint` when given; `federated` does not apply there.
    """

  public static let example = """
    scenario: Logging out ends the SSO session
    client: native
    steps:
      - id: login
        web_auth:
          browser: phone
          login: { email: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
      - id: logout
        logout: { browser: phone }
        expect:
          url: ${{ client.redirect_uri }}
      - id: silent
        web_auth:
          browser: phone
          parameters: { prompt: none }
        expect:
          error.code: login_required
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidRequest,
    scenario: """
      scenario: A returnTo the tenant does not allow is refused
      client: native
      steps:
        - id: fails
          logout: { return_to: "https://evil.example/after" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["logout"], errors: StepErrorCode.anyTenantCall + [.invalidRequest, .loginRequired],
    failures: ActionTraits.browserFlow)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    guard let clientID = context.client.clientID else {
      throw .flow(WebAuthMessages.noClientID)
    }
    guard let returnTo = try input[Self.returnTo] ?? context.client.redirectURI else {
      throw .flow(WebAuthMessages.noRedirectURI)
    }
    if let hint = try input[Self.idTokenHint] { context.secrets.register(hint) }
    let url = try Self.logoutURL(clientID: clientID, returnTo: returnTo, input: input, tenant: context.tenant)
    let browser = await context.browser(named: try input[Self.browser])
    await browser.registerCallback(prefix: returnTo)
    let exchange: BrowserResponse
    do {
      exchange = try await browser.send(HTTPRequest(method: .get, url: url), followRedirects: true)
    } catch {
      throw .environment(WebAuthMessages.unreachable(error.message))
    }
    var result: [String: Value] = [
      "logout_url": .string(url), "status": .int(exchange.response.status),
      "pages": .array(exchange.visited.map(Value.string)),
    ]
    guard let callback = exchange.callbackURL else {
      let document = HTMLDocument.parse(exchange.response)
      let page = PageResult(kind: PageKind.classify(document), document: document, status: exchange.response.status)
      result["page"] = page.value
      result["url"] = .string(exchange.url)
      if page.kind == .error || exchange.response.status >= 400 {
        return .protocolError(
          ProtocolError(
            code: page.errorCode ?? "invalid_request", description: page.error, status: exchange.response.status),
          result: .object(result))
      }
      return .success(.object(result))
    }
    result["url"] = .string(callback)
    // An error sent back to the return URL (`?error=…`) is the logout refused, not a logout: the
    // step's error, as an error page is.
    if let error = CallbackParameters(url: callback).protocolError {
      return .protocolError(error, result: .object(result))
    }
    return .success(.object(result))
  }

  /// `v2/logout?returnTo=…&client_id=…` on Auth0-shaped tenants, the end-session endpoint on `oidc` ones.
  static func logoutURL(
    clientID: String, returnTo: String, input: Parameters, tenant: TenantContext
  ) throws(ActionError) -> String {
    guard tenant.endpoints.layout == .discovered else {
      let federated = try input[Self.federated] ?? false
      let query = URLParameters([("returnTo", returnTo), ("client_id", clientID)]).queryString()
      return (tenant.endpoints.auth0Logout ?? tenant.baseURL + "v2/logout") + "?" + (federated ? "federated&" : "")
        + query
    }
    guard let endpoint = tenant.endpoints.endSession else {
      throw .flow(
        EndpointUnavailable(path: "oidc/logout", member: "end_session_endpoint", capability: "logout")
          .message(tenant: tenant.name))
    }
    var pairs = [("client_id", clientID), ("post_logout_redirect_uri", returnTo)]
    if let hint = try input[Self.idTokenHint] { pairs.append(("id_token_hint", hint)) }
    return endpoint + (endpoint.contains("?") ? "&" : "?") + URLParameters(pairs).queryString()
  }
}
