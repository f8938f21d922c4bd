import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `GET /authorize` (docs/protocol.md §2.1): validates the request, then either answers from the SSO
/// session or sends the browser to the Universal Login pages.
struct AuthorizeRoutes {
  let tenant: MockTenant

  static let sessionCookie = "auth0"
  /// How long a login transaction lives, seconds (its cookie as long).
  static let loginLifetime = 3600.0

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "authorize": { request, _ in await authorize(request) },
      // OpenID Connect Core §3.1.2.1: the authorization endpoint MUST support POST too, the
      // parameters form-encoded in the body.
      "authorizeWithForm": { request, context in
        let isForm = request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        guard isForm, let body = await RequestParameters.body(of: request, context: context) else {
          return page(.malformedPostBody)
        }
        return await authorize(request, parameters: body)
      },
    ]
  }

  /// The parameters that decide where an answer may be sent.
  static let redirectDeciding: Set<String> = ["client_id", "redirect_uri", "request_uri"]

  func authorize(_ request: Request) async -> Response {
    await authorize(request, parameters: RequestParameters.query(of: request))
  }

  /// `/authorize` with its parameters, from the query (GET) or the form body (POST).
  func authorize(_ request: Request, parameters: RequestParameters) async -> Response {
    var query = parameters
    // A parameter given twice (RFC 6749 §3.1): which `client_id`, `redirect_uri` or `request_uri`
    // was meant cannot be known, so that is a page; any other is refused on the redirect below.
    if let repeated = query.repeatedParameters.first(where: Self.redirectDeciding.contains) {
      return page(.repeatedParameter(repeated))
    }
    // PAR: the pushed parameters replace the query (RFC 9126 §4).
    if query.has("request_uri") {
      switch await PushedAuthorizationRoutes(tenant: tenant).redeem(query) {
      case .success(let pushed): query = pushed
      case .failure(let error): return page(error)
      }
    }
    // Until the client and redirect_uri are trusted, errors are pages, never redirects.
    guard let clientID = query.string("client_id") else { return page(.missingParameter("client_id")) }
    guard let client = tenant.client(id: clientID) else { return page(.unknownClient(clientID)) }
    guard let redirectURI = query.string("redirect_uri") else { return page(.missingParameter("redirect_uri")) }
    guard client.callbacks.contains(redirectURI) else { return page(.callbackMismatch(redirectURI)) }

    let responseType = query.string("response_type") ?? ""
    let types = Set(responseType.split(separator: " ").map(String.init))
    // Tokens at the authorization endpoint (implicit: `id_token`, `token`; hybrid: `code` with
    // them) travel in the fragment by default and never in the query.
    let tokensInFront = !types.isEmpty && types.isSubset(of: ["token", "id_token", "code"]) && types != ["code"]
    var authorizeRequest = AuthorizeRequest(
      clientID: clientID, redirectURI: redirectURI, responseType: responseType,
      responseMode: query.string("response_mode") ?? (tokensInFront ? "fragment" : "query"),
      state: query.string("state"),
      nonce: query.string("nonce"), scope: Scope.parse(query.string("scope") ?? "openid"),
      audience: query.string("audience"), connection: query.string("connection"),
      loginHint: query.string("login_hint"))
    if !authorizeRequest.scope.contains("openid") { authorizeRequest.scope.insert("openid", at: 0) }
    let completion = AuthorizeCompletion(tenant: tenant)
    if let repeated = query.repeatedParameter {
      // Which `state` to echo is as unknown as the rest: none is.
      if query.repeatedParameters.contains("state") { authorizeRequest.state = nil }
      return completion.redirect(authorizeRequest, error: .repeatedParameter(repeated))
    }
    // Request objects (OpenID Connect Core §6): not supported, as discovery says
    // (`request_parameter_supported`, `request_uri_parameter_supported`: false); the errors OpenID Connect
    // Core §6.3 defines. A `request_uri` of a pushed request was replaced above.
    if query.has("request") { return completion.redirect(authorizeRequest, error: .requestNotSupported) }
    if query.has("request_uri") { return completion.redirect(authorizeRequest, error: .requestURINotSupported) }
    do {
      try validate(&authorizeRequest, query: query, client: client, types: types, tokensInFront: tokensInFront)
    } catch {
      return completion.redirect(authorizeRequest, error: error)
    }

    let otherLogin = OtherLoginPageRoutes(tenant: tenant)
    if let token = query.string("continue"),
      let resumed = await otherLogin.resume(authorizeRequest, token: token, request: request)
    {
      return resumed
    }
    let prompt = Set((query.string("prompt") ?? "").split(separator: " ").map(String.init))
    let now = tenant.clock.seconds
    let passwordless = UniversalLoginPasswordlessRoutes.handles(
      authorizeRequest.connection.flatMap(tenant.fixture.connection(named:)))
    let screen = passwordless ? "passwordless" : query.string("screen_hint") == "signup" ? "signup" : "login"
    if let ticket = query.string("invitation") {
      if prompt.contains("none") { return completion.redirect(authorizeRequest, error: .loginRequired) }
      return await InvitationAcceptance(tenant: tenant).begin(ticket: ticket, request: authorizeRequest)
    }
    var session = await currentSession(request)
    var cookies: [Cookie] = []
    var forceLogin = prompt.contains("login")
    if let token = query.string("session_transfer_token") {
      let transfer = await SessionTransferRedemption(tenant: tenant).redeem(token, current: session, request: request)
      session = transfer.session
      cookies = transfer.cookies
      forceLogin = forceLogin || transfer.forceLogin
    }
    let selectsAfterLogin = client.organizationRequireBehavior == .postLoginPrompt
    if authorizeRequest.organization == nil, client.organizationUsage == .require, selectsAfterLogin {
      // The organization is picked after the login, which `prompt=none` cannot show.
      if prompt.contains("none") {
        return completion.redirect(authorizeRequest, error: .organizationSelectionRequired, cookies: cookies)
      }
      authorizeRequest.organizationSelection = true
    } else if authorizeRequest.organization == nil, client.organizationUsage == .require {
      guard client.organizationRequireBehavior == .preLoginPrompt else {
        return completion.redirect(authorizeRequest, error: .organizationRequired, cookies: cookies)
      }
      if prompt.contains("none") { return completion.redirect(authorizeRequest, error: .loginRequired) }
      var transaction = LoginTransaction(
        id: RandomToken.make(bytes: 24), request: authorizeRequest, csrf: RandomToken.make(bytes: 24))
      transaction.screen = screen
      transaction.sessionAllowed = !forceLogin && screen != "signup"
      tenant.transact { $0.startLogin(transaction, expiresAt: now + Self.loginLifetime) }
      return Responses.redirect(
        "/u/organization?state=\(FormEncoding.escape(transaction.id))",
        cookies: cookies + [TransactionBinding.cookie(for: transaction, tenant: tenant)])
    }
    let sessionSatisfies = session.map { satisfies($0, authorizeRequest) } ?? false

    if prompt.contains("none") {
      guard sessionSatisfies, let session else { return completion.redirect(authorizeRequest, error: .loginRequired) }
      return await completion.finish(
        authorizeRequest, userID: session.userID, authTime: session.authTime, cookies: cookies)
    }
    if sessionSatisfies, !forceLogin, let session {
      return await completion.finish(
        authorizeRequest, userID: session.userID, authTime: session.authTime, cookies: cookies)
    }
    let ownPage = screen == "login" && authorizeRequest.connection == nil
    if ownPage, tenant.fixture.settings.loginPage == .app,
      let location = otherLogin.loginLocation(state: "", query: request.uri.query ?? "")
    {
      return Responses.redirect(location, cookies: cookies)
    }
    let transaction = LoginTransaction(
      id: RandomToken.make(bytes: 24), request: authorizeRequest, csrf: RandomToken.make(bytes: 24))
    tenant.transact { $0.startLogin(transaction, expiresAt: now + Self.loginLifetime) }
    cookies.append(TransactionBinding.cookie(for: transaction, tenant: tenant))
    if ownPage, case .singleField = tenant.fixture.settings.loginPage,
      let location = otherLogin.loginLocation(state: transaction.id, query: "")
    {
      return Responses.redirect(location, cookies: cookies)
    }
    // A simulated web social connection (`connection=github`) goes through the provider's page.
    if var social = await SocialLoginRoutes(tenant: tenant).start(
      transaction, connectionScope: query.string("connection_scope"))
    {
      for cookie in cookies { social.setCookie(cookie) }
      return social
    }
    return Responses.redirect("/u/\(screen)?state=\(FormEncoding.escape(transaction.id))", cookies: cookies)
  }

  /// Whether `session` may answer `request` (`max_age`).
  func satisfies(_ session: SSOSession, _ request: AuthorizeRequest) -> Bool {
    request.maxAge.map { tenant.clock.seconds - session.authTime <= Double($0) } ?? true
  }

  private func validate(
    _ request: inout AuthorizeRequest, query: RequestParameters, client: ClientConfig, types: Set<String>,
    tokensInFront: Bool
  ) throws(AuthorizeError) {
    guard !types.isEmpty else { throw .missingParameter("response_type") }
    if let mode = request.responseMode {
      guard AuthorizationResponse.modes.contains(mode) else {
        request.responseMode = tokensInFront ? "fragment" : "query"
        throw .unsupportedResponseMode(mode)
      }
      // Tokens never travel in a query string (OAuth 2.0 Multiple Response Type Encoding Practices §3.0).
      if tokensInFront, mode == "query" {
        request.responseMode = "fragment"
        throw .queryModeForTokens
      }
      if mode == "web_message", AuthorizationResponse.origin(of: request.redirectURI) == nil {
        request.responseMode = "query"
        throw .webMessageNeedsWebOrigin
      }
    }
    if types == ["code"] {
      guard client.grantTypes.contains("authorization_code") else { throw .grantNotAllowed("authorization_code") }
    } else if tokensInFront {
      // An implicit flow needs the implicit grant; a hybrid one (OIDC Core §3.3) the code flow's
      // too, as Auth0 asks of the application.
      if types.contains("code") {
        guard client.grantTypes.contains("authorization_code") else { throw .grantNotAllowed("authorization_code") }
      }
      guard client.grantTypes.contains("implicit") else { throw .grantNotAllowed("implicit") }
      if types.contains("id_token"), request.nonce == nil { throw .missingParameter("nonce") }
    } else {
      throw .unsupportedResponseType(request.responseType)
    }
    if let challenge = query.string("code_challenge") {
      let methodName = query.string("code_challenge_method") ?? "plain"
      guard let method = PKCE.Method(rawValue: methodName) else { throw .unsupportedChallengeMethod }
      request.codeChallenge = challenge
      request.codeChallengeMethod = method
    } else if query.string("code_challenge_method") != nil {
      throw .missingParameter("code_challenge")
    }
    if let text = query.string("max_age") {
      guard let maxAge = Int(text), maxAge >= 0 else { throw .invalidMaxAge }
      request.maxAge = maxAge
    }
    if let audience = request.audience, tenant.api(audience: audience) == nil { throw .serviceNotFound(audience) }
    if let reference = query.string("organization") {
      guard client.organizationUsage != .deny else { throw .organizationNotAllowed }
      guard let organization = tenant.organization(reference) else { throw .organizationNotFound(reference) }
      request.organization = organization
    } else if query.string("invitation") != nil {
      throw .missingParameter("organization")
    }
    if let connection = request.connection {
      guard let found = tenant.fixture.connection(named: connection),
        found.enabledClients.isEmpty || found.enabledClients.contains(client.profile)
      else { throw .connectionNotFound }
      if let organization = request.organization, !organization.allowsConnection(connection) {
        throw .connectionNotEnabledForOrganization
      }
    }
  }

  func currentSession(_ request: Request) async -> SSOSession? {
    guard let id = request.cookies[Self.sessionCookie]?.value else { return nil }
    let now = tenant.clock.seconds
    return tenant.read { $0.sessions.live(id, now: now) }
  }

  private func page(_ error: AuthorizeError) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: .badRequest)
  }
}
