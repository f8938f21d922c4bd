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
  static let endSession = Parameter<Bool>(
    "end_session",
    summary:
      "Log out at the end-session endpoint (OpenID Connect RP-Initiated Logout) on any tenant: `/oidc/logout` on "
      + "`mock` and `auth0` ones (default: only on `oidc` tenants).")
  static let state = Parameter<String>(
    "state", summary: "With the end-session endpoint: a `state` the provider must echo to `return_to`.")
  static let confirm = Parameter<Bool>(
    "confirm",
    summary:
      "When the provider asks the user to confirm the logout (a page with one POST form and no password field), "
      + "submit it as the user would (default false: the page is the result).")
  static let parameters = Parameter<[String: Value]>(
    "parameters",
    summary:
      "With the end-session endpoint: other parameters, overriding the defaults; `null` removes one "
      + "(`client_id: null` sends none).")

  public static let signature = ActionSignature(
    name: "logout", summary: "End the SSO session with /v2/logout through the browser.",
    declaring: [
      Self.returnTo, Self.federated, Self.browser, Self.idTokenHint, Self.endSession, Self.state, Self.confirm,
      Self.parameters,
    ],
    results: .closed([
      ResultField("logout_url", "The logout URL the browser was sent to."), ResultField("url", "The redirect URL."),
      ResultField(
        "returned", "Whether the provider sent the browser to `return_to` (or the client's registered URI).",
        type: .bool),
      ResultField(
        "returned_parameters",
        "The query parameters the provider added to the return URL (`state`, …), by name; empty when it did not return.",
        type: .object),
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

    On an `oidc` tenant, or with `end_session: true` on any, the browser goes to the discovery
    document's `end_session_endpoint` instead (OpenID Connect RP-Initiated Logout; `/oidc/logout`
    on Auth0): `client_id`, `post_logout_redirect_uri` (the `return_to`), `id_token_hint` and
    `state` when given, then `parameters` (a `null` removes one: `client_id: null`,
    `post_logout_redirect_uri: null`); `federated` does not apply there. `returned` says whether
    the browser was sent to `return_to` — or to the client's registered `redirect_uri` or one of
    its `logout_urls` (a profile's list of post-logout URIs), which a provider may use instead —
    and `returned_parameters` what the provider added to it (`confirm: true` first submits the
    page on which a provider asks the user to confirm the logout, as RP-Initiated Logout §2 says it
    should): a logout
    that must not return (a wrong `post_logout_redirect_uri`, a forged `id_token_hint`) is
    `returned: false` with the page the provider showed in `page`.
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
    // The client's registered URI too: a provider that returns there instead of to the one asked
    // for is caught, not followed to the app's site.
    if let registered = context.client.redirectURI { await browser.registerCallback(prefix: registered) }
    for allowed in context.client.value.member("logout_urls")?.arrayValue ?? [] {
      if let url = allowed.stringValue, URLSecurity.httpScheme(of: url) != nil {
        await browser.registerCallback(prefix: url)
      }
    }
    var exchange: BrowserResponse
    do {
      exchange = try await browser.send(HTTPRequest(method: .get, url: url), followRedirects: true)
      // RP-Initiated Logout §2: the OP SHOULD ask the user whether to log out; `confirm` says yes.
      if try input[Self.confirm] ?? false, exchange.callbackURL == nil,
        let form = Self.confirmation(in: exchange.response)
      {
        var visited = exchange.visited
        exchange = try await browser.send(try form.submission(), followRedirects: true)
        visited += exchange.visited
        exchange = BrowserResponse(response: exchange.response, visited: visited, callbackURL: exchange.callbackURL)
      }
    } catch let error as TransportError {
      throw .environment(WebAuthMessages.unreachable(error.message))
    } catch let error as FormError {
      throw .flow("the logout confirmation form cannot be sent: \(error)")
    } catch {
      throw .environment(WebAuthMessages.unreachable("\(error)"))
    }
    var result: [String: Value] = [
      "logout_url": .string(url), "status": .int(exchange.response.status),
      "pages": .array(exchange.visited.map(Value.string)), "returned": false, "returned_parameters": .object([:]),
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
    result["returned"] = true
    result["returned_parameters"] = .object(
      Dictionary(URLParameters.query(of: callback).pairs.map { ($0.name, Value.string($0.value)) }) { first, _ in first
      })
    // An error sent back to the return URL (`?error=…`) is the logout refused, not a logout: the
    // step's error, as an error page is.
    if let error = CallbackParameters(url: callback).protocolError {
      return .protocolError(error, result: .object(result))
    }
    return .success(.object(result))
  }

  /// A logout confirmation: a 200 page with exactly one form, sent by POST, asking no password.
  static func confirmation(in response: HTTPResponse) -> HTMLForm? {
    guard response.status == 200 else { return nil }
    let document = HTMLDocument.parse(response)
    guard document.forms.count == 1, let form = document.forms.first, form.method == .post,
      !form.fields.contains(where: { $0.type.lowercased() == "password" })
    else { return nil }
    return form
  }

  /// `v2/logout?returnTo=…&client_id=…` on Auth0-shaped tenants, the end-session endpoint on `oidc` ones.
  static func logoutURL(
    clientID: String, returnTo: String, input: Parameters, tenant: TenantContext
  ) throws(ActionError) -> String {
    let endSession = try input[Self.endSession] ?? false
    guard tenant.endpoints.layout == .discovered || endSession else {
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
    if let state = try input[Self.state] { pairs.append(("state", state)) }
    let given = try input[Self.parameters] ?? [:]
    pairs.removeAll { given[$0.0] != nil }
    pairs += try input.stringMap(Self.parameters)
    guard !pairs.isEmpty else { return endpoint }
    return endpoint + (endpoint.contains("?") ? "&" : "?") + URLParameters(pairs).queryString()
  }
}
