import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
import AuthFlowScenario

/// One `web_auth` run: the request built from the step's parameters, then the browser, the
/// callback and the code exchange.
struct WebAuthTransaction: Sendable {
  var request: AuthorizeRequest
  var clientID: String
  var clientSecret: String?
  var browserName: String?
  var values: [PageKind: [String: String]]
  var stopAt: PageKind?
  var validate: Bool
  var telemetry: String?
  var options: IDTokenValidator.Options
  /// `POST` to send the authorization request as a form (`method: POST`).
  var usesPost: Bool
  /// The client authentication of the code exchange, when the step overrides the profile's.
  var tokenEndpointAuthMethod: String?

  init(_ input: Parameters, context: ActionContext) throws(ActionError) {
    guard let clientID = context.client.clientID else {
      throw .flow(WebAuthMessages.noClientID)
    }
    guard let redirectURI = try input[WebAuthAction.redirectURI] ?? context.client.redirectURI
    else { throw .flow(WebAuthMessages.noRedirectURI) }
    self.clientID = clientID
    self.clientSecret = context.client.clientSecret
    // Auth0's telemetry goes to Auth0 tenants (and the mock) only, whatever the step says.
    let sendTelemetry = (try input[WebAuthAction.telemetry] ?? true) && context.tenant.sendsAuth0Telemetry
    telemetry = sendTelemetry ? AuthorizeRequest.telemetry : nil
    var options = AuthorizeRequest.Options(clientID: clientID, redirectURI: redirectURI)
    options.responseType = try input[WebAuthAction.responseType] ?? "code"
    options.scope = try input[WebAuthAction.scope]
    options.audience = try input[WebAuthAction.audience]
    options.connection = try input[WebAuthAction.connection]
    options.connectionScope = try input[WebAuthAction.connectionScope]
    options.organization = try input[WebAuthAction.organization]
    options.maxAge = try input[WebAuthAction.maxAge]
    options.telemetry = telemetry
    if let url = try input[WebAuthAction.invitationURL] {
      guard let invitation = AuthorizeRequest.invitation(from: url) else {
        throw .invalidParameter(WebAuthAction.invitationURL, WebAuthMessages.invalidInvitationURL(url))
      }
      options.organization = invitation.organization
      options.invitation = invitation.invitation
    }
    if let lock = try input[WebAuthAction.lock] {
      options.extra += LockParameters(lock).payload(connection: options.connection)
    }
    options.extra += try input.stringMap(WebAuthAction.parameters)
    options.removed = (try input[WebAuthAction.parameters] ?? [:]).filter(\.value.isNull).map(\.key).sorted()
    if let object = try input[WebAuthAction.requestObject] {
      options.requestObject = true
      options.outside = try input.stringMap("request_object.outside", object["outside"]?.objectValue ?? [:])
    }
    request = AuthorizeRequest(options)
    usesPost = try input[WebAuthAction.method] == "POST"
    tokenEndpointAuthMethod = try input[WebAuthAction.tokenEndpointAuthMethod]
    browserName = try input[WebAuthAction.browser]
    var values: [PageKind: [String: String]] = [:]
    for (kind, parameter) in [(PageKind.login, WebAuthAction.login), (.signup, WebAuthAction.signup)] {
      let pairs = try input.stringMap(parameter)
      if input.contains(parameter) { values[kind] = Dictionary(pairs, uniquingKeysWith: { first, _ in first }) }
    }
    if let name = try input[WebAuthAction.organizationPrompt] { values[.organization] = ["organization_name": name] }
    if input.contains(WebAuthAction.passwordless) {
      var given = Dictionary(try input.stringMap(WebAuthAction.passwordless), uniquingKeysWith: { first, _ in first })
      if let code = given.removeValue(forKey: "code") { values[.passwordlessCode] = ["code": code] }
      values[.passwordless] = given
    }
    self.values = values
    stopAt = try input[WebAuthAction.stopAt].flatMap(PageKind.init(rawValue:))
    validate = try input[WebAuthAction.validateIDToken] ?? true
    let maxAge = request.requested["max_age"].flatMap(Int.init)
    // The org from an invitation URL is not validated unless `organization` is set too (docs/protocol.md §5).
    self.options = IDTokenValidator.Options(
      issuer: context.tenant.issuer, clientID: clientID, nonce: request.nonce, maxAge: maxAge,
      organization: try input[WebAuthAction.organization],
      leeway: try input[WebAuthAction.leeway] ?? IDTokenCheck.webAuthLeeway,
      algorithms: context.tenant.idTokenAlgorithms, clientSecret: context.client.clientSecret)
  }

  /// True when the response must carry an ID token: `openid` was requested and the response type
  /// returns one (`code` through the token endpoint, or `id_token`).
  var expectsIDToken: Bool {
    let scope = (request.requested["scope"] ?? "").split(separator: " ")
    let types = request.responseType.split(separator: " ")
    return scope.contains("openid") && (types.contains("code") || types.contains("id_token"))
  }

  /// The response type the request carried: empty when the step removed it (`response_type:
  /// null`), whose response the provider sends in the query, as for `code`.
  var sentResponseType: String { request.requested["response_type"] ?? "" }

  func run(context: ActionContext) async throws(ActionError) -> ActionOutcome {
    for secret in [request.codeVerifier].compactMap({ $0 }) {
      context.secrets.register(secretsIn: .secret(.string(secret)))
    }
    let profile = context.tenant.loginPageProfile
    let tenantEngine = context.tenant.settings["browser"]?.stringValue.flatMap(BrowserEngine.init(rawValue:))
    let (engine, name) = BrowserEngine.select(step: browserName, tenant: tenantEngine)
    let navigator: any PageNavigator
    var page: ChromiumPage?
    switch engine {
    case .html:
      let browser = await context.browser(named: name)
      await browser.registerCallback(prefix: request.redirectURI)
      // The client's registered redirect URI too: a provider that sends the browser there instead
      // of to the one asked for is caught, not followed to the app's site.
      if let registered = context.client.redirectURI { await browser.registerCallback(prefix: registered) }
      navigator = HTMLPageNavigator(browser: browser)
    case .chromium:
      let opened = try await context.chromiumPage(named: name, callback: request.redirectURI)
      page = opened
      navigator = ChromiumNavigator(
        page: opened, settleLimit: context.services.chromium.configuration.settleLimit, profile: profile)
    }
    var driver = UniversalLoginDriver(
      navigator: navigator, mapping: FormFieldMapping(profile: profile), values: values, stopAt: stopAt)
    driver.profile = profile
    driver.secrets = context.secrets
    driver.callback = request.redirectURI
    if context.tenant.inbox != nil {
      driver.mailbox = try TenantMailbox(context, action: WebAuthAction.signature.name)
    }
    let endpoint = try AuthenticationAPI(context).url("authorize")
    let authorizeURL = usesPost ? endpoint : request.url(endpoint: endpoint)
    var result: [String: Value] = [
      "authorize_url": .string(authorizeURL),
      "authorize_parameters": .object(request.requested.dictionary.mapValues(Value.string)),
    ]
    let ending: UniversalLoginDriver.Ending
    do {
      ending = try await driver.run(from: usesPost ? .post(endpoint, fields: request.parameters) : .get(authorizeURL))
    } catch {
      await page?.close()
      throw error
    }
    await page?.close()
    result["pages"] = .array(driver.pages.map(Value.string))
    let callback: CallbackParameters
    switch ending {
    case .page(let page, let failure, let hint):
      result["page"] = page.value
      if let failure {
        let code = page.errorCode ?? WebAuthMessages.pageErrorCode
        return .protocolError(
          ProtocolError(code: code, description: page.error ?? failure, status: page.status, hint: hint),
          result: .object(result))
      }
      return .success(.object(result))
    case .callback(let url):
      callback = CallbackParameters(url: url)
      context.report(
        FormPostRules.findings(
          redirectedTo: url, responseMode: request.requested["response_mode"], responseType: sentResponseType))
    case .formPost(let response):
      if page != nil { throw .flow(ChromiumNavigatorMessages.formPost) }
      callback = CallbackParameters(posted: response.fields, to: response.url)
      context.report(FormPostRules.findings(response))
    }
    let callbackURL = callback.url
    for value in callback.secrets { context.secrets.register(secretsIn: .secret(.string(value))) }
    if let mismatch = callback.stateMismatch(
      expected: request.state, url: callbackURL, inRequestObject: request.sentInRequestObject)
    {
      throw .flow(mismatch)
    }
    result[WebAuthResult.authorizationResponse.name] = callback.value
    result[WebAuthResult.callbackURI.name] = .string(callback.uri)
    context.report(
      AuthorizationResponseRules.findings(
        in: callback.values, issuer: context.tenant.issuer, responseType: sentResponseType))
    if stopAt == .callback {
      // Stopped at the callback: what a scenario needs to finish the flow by hand (the code and
      // the PKCE verifier, both secret), and an error the callback carries is the step's error,
      // as it is when the flow goes on: a callback is not a success because it was reached.
      result["page"] = PageResult(callback: callbackURL, parameters: callback).value
      if let code = callback["code"] { result[WebAuthResult.code.name] = Value.string(code).asSecret }
      if let verifier = request.codeVerifier {
        result[WebAuthResult.codeVerifier.name] = Value.string(verifier).asSecret
      }
      if let error = callback.protocolError { return .protocolError(error, result: .object(result)) }
      return .success(.object(result))
    }
    if let error = callback.protocolError { return .protocolError(error, result: .object(result)) }
    if request.responseType.split(separator: " ").contains("code") {
      guard let code = callback["code"] else { throw .flow(WebAuthMessages.noAuthorizationCode(callback.values)) }
      var body: [String: Value] = [
        "grant_type": .string("authorization_code"), "client_id": .string(clientID), "code": .string(code),
        "redirect_uri": .string(request.redirectURI),
      ]
      if let verifier = request.codeVerifier { body["code_verifier"] = .string(verifier) }
      if let clientSecret { body["client_secret"] = .string(clientSecret) }
      var exchangeContext = context
      if let method = tokenEndpointAuthMethod {
        var profile = context.client.value.objectValue ?? [:]
        profile[ClientAuthenticationMethod.profileKey] = .string(method)
        exchangeContext.client = ClientProfile(.object(profile))
      }
      let exchange = try await TokenResponse.exchange(body, telemetry: telemetry, context: exchangeContext)
      result["response"] = exchange.response
      if let error = exchange.error { return .protocolError(error, result: .object(result)) }
      result.merge(exchange.credentials) { _, new in new }
      if validate, sentResponseType.split(separator: " ").contains("id_token") {
        await checkHybridIDToken(callback, result: &result, context: context)
      }
    } else {
      result.merge(TokenResponse.credentials(callback.values.mapValues(Value.string))) { _, new in new }
    }
    if validate, result["id_token"].map({ !$0.isNull }) == true {
      // at_hash and c_hash, when the token has them, must match what came with it.
      var options = self.options
      options.accessToken = result["access_token"]?.stringValue
      options.code = callback["code"]
      await IDTokenCheck.apply(to: &result, options: options, context: context)
    } else if validate, expectsIDToken {
      // OIDC Core §3.1.3.3 / §3.2.2.5: with `openid`, the ID token is REQUIRED (Auth0.swift fails too).
      result["id_token_valid"] = .bool(false)
      result["id_token_error"] = .string(IDTokenValidationError.missing.message)
    }
    return .success(.object(result))
  }

  /// A hybrid response's ID token (`code id_token`, `code id_token token`; OIDC Core §3.3.2.11,
  /// §3.3.2.12): validated as every ID token is, its `c_hash` over the code and its `at_hash` over
  /// the access token beside it, kept as `authorization_id_token`; its `sub` must be the token
  /// endpoint's ID token's (OIDC Core §3.3.3.6, the conformance suite's
  /// `VerifyIdTokenSubConsistentHybridFlow`). What breaks these is a finding of the step.
  private func checkHybridIDToken(
    _ callback: CallbackParameters, result: inout [String: Value], context: ActionContext
  ) async {
    guard let raw = callback["id_token"] else {
      // The response type asked for one: a response without it is not a hybrid response at all.
      context.report(
        ProtocolFinding(
          "ExtractIdTokenFromAuthorizationResponse", clause: "OpenID Connect Core §3.3.2.5",
          "response_type \(sentResponseType) returns an ID token, but the authorization response has none",
          path: [WebAuthResult.authorizationIDToken.name]))
      return
    }
    var front = TokenResponse.credentials(["id_token": .string(raw)])
    var options = self.options
    options.code = callback["code"]
    options.accessToken = callback["access_token"]
    await IDTokenCheck.apply(to: &front, options: options, context: context)
    result[WebAuthResult.authorizationIDToken.name] = front["id_token"]
    var findings: [ProtocolFinding] = []
    if let error = front["id_token_error"]?.stringValue {
      findings.append(
        ProtocolFinding(
          "ValidateIdToken", clause: "OpenID Connect Core §3.3.2.12",
          "the authorization response's ID token: \(error)", path: [WebAuthResult.authorizationIDToken.name]))
    }
    if case .jwt(let back)? = result["id_token"], case .jwt(let token)? = front["id_token"],
      back.claims["sub"] != token.claims["sub"]
    {
      findings.append(
        ProtocolFinding(
          "VerifyIdTokenSubConsistentHybridFlow", clause: "OpenID Connect Core §3.3.3.6",
          "the token endpoint's ID token names another sub than the authorization response's",
          path: [WebAuthResult.authorizationIDToken.name]))
    }
    context.report(findings)
  }
}
