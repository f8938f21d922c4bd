import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The device flow's browser side (RFC 8628 §3.3): `/activate` asks for the user code, shows what
/// the device asks for (confirm or decline), then logs the user in through Universal Login (or
/// takes the SSO session) and approves the code. Both forms carry a CSRF token bound to the
/// activation transaction; a user code is decided once.
struct ActivateRoutes {
  let tenant: MockTenant

  /// How long an activation transaction stays valid, seconds.
  static let lifetime = 900.0
  /// Wrong user codes before the activation transaction is dropped.
  static let maxFailures = 5

  func register(on router: Router<BasicRequestContext>) {
    router.get("/activate") { request, _ in await start(request) }
    router.post("/activate") { request, context in await enter(request, context: context) }
    router.post("/activate/confirm") { request, context in await confirm(request, context: context) }
  }

  /// A new activation transaction and the user-code form (pre-filled from `?user_code=`).
  private func start(_ request: Request) async -> Response {
    let activation = DeviceActivation(id: RandomToken.make(bytes: 24), csrf: RandomToken.make(bytes: 24))
    tenant.withState {
      $0.deviceActivations.insert(
        activation, key: activation.id, expiresAt: tenant.clock.seconds + Self.lifetime)
    }
    return Responses.html(
      DevicePages.activate(activation, userCode: RequestParameters.query(of: request).string("user_code")))
  }

  /// The user code: a live, undecided one leads to the confirmation page.
  private func enter(_ request: Request, context: BasicRequestContext) async -> Response {
    let (form, found) = await bound(request, context: context)
    guard let form, let activation = found else {
      return errorPage(DeviceMessages.unknownActivation, status: .badRequest)
    }
    guard RandomToken.constantTimeEquals(form.string("_csrf") ?? "", activation.csrf) else {
      return errorPage(DeviceMessages.invalidCSRF, status: .forbidden)
    }
    guard let typed = form.string("user_code") else {
      return Responses.html(
        DevicePages.activate(activation, error: DeviceMessages.missingUserCode), status: .badRequest)
    }
    let now = tenant.clock.seconds
    // Looked up and counted in one step: concurrent guesses never pass `maxFailures`.
    let entry = tenant.withState {
      $0.enterUserCode(
        typed, activation: activation.id, now: now, maxFailures: Self.maxFailures, lifetime: Self.lifetime)
    }
    switch entry {
    case .unknownActivation:
      return errorPage(DeviceMessages.unknownActivation, status: .badRequest)
    case .tooManyAttempts:
      return Responses.html(
        LoginPages.error(code: "too_many_attempts", description: DeviceMessages.tooManyAttempts),
        status: .tooManyRequests)
    case .wrong(let counted):
      return Responses.html(
        DevicePages.activate(counted, userCode: typed, error: DeviceMessages.invalidUserCode), status: .badRequest)
    case .accepted(let updated, let authorization):
      let clientName = tenant.client(id: authorization.clientID)?.name ?? "the application"
      return Responses.html(DevicePages.confirm(updated, authorization: authorization, clientName: clientName))
    }
  }

  /// Confirm or decline. Confirming logs in (the SSO session when there is one) and approves.
  private func confirm(_ request: Request, context: BasicRequestContext) async -> Response {
    let (form, found) = await bound(request, context: context)
    guard let form, let activation = found else {
      return errorPage(DeviceMessages.unknownActivation, status: .badRequest)
    }
    guard RandomToken.constantTimeEquals(form.string("_csrf") ?? "", activation.csrf) else {
      return errorPage(DeviceMessages.invalidCSRF, status: .forbidden)
    }
    let now = tenant.clock.seconds
    guard let userCode = activation.userCode,
      let authorization = tenant.withState({ $0.deviceCodes.pending(userCode: userCode, now: now) })
    else { return errorPage(DeviceMessages.codeNoLongerPending, status: .badRequest) }
    switch form.string("action") {
    case "deny":
      tenant.withState { $0.deviceActivations.remove(activation.id) }
      _ = tenant.withState { $0.deviceCodes.decide(userCode: userCode, .denied, now: now) }
      return Responses.html(DevicePages.done(approved: false))
    case "confirm":
      tenant.withState { $0.deviceActivations.remove(activation.id) }
      if let session = await AuthorizeRoutes(tenant: tenant).currentSession(request) {
        return await approve(userCode, userID: session.userID, authTime: session.authTime)
      }
      let login = AuthorizeRequest(
        clientID: authorization.clientID, redirectURI: "", responseType: "device_code", scope: authorization.scope,
        audience: authorization.audience, deviceUserCode: userCode)
      let transaction = LoginTransaction(
        id: RandomToken.make(bytes: 24), request: login, csrf: RandomToken.make(bytes: 24))
      tenant.withState { $0.transactions.insert(transaction, key: transaction.id, expiresAt: now + 3600) }
      return Responses.redirect(
        "/u/login?state=\(FormEncoding.escape(transaction.id))",
        cookies: [TransactionBinding.cookie(for: transaction, tenant: tenant)])
    default:
      return errorPage(AuthorizeError.missingParameter("action"), status: .badRequest)
    }
  }

  /// Approves `userCode` for the user who just logged in (or whose session it is) and shows the
  /// final page; `cookies` carry a new SSO session.
  func approve(_ userCode: String, userID: String, authTime: Double, cookies: [Cookie] = []) async -> Response {
    let approved = tenant.withState({
      $0.deviceCodes.decide(
        userCode: userCode, .approved(userID: userID, authTime: authTime), now: tenant.clock.seconds)
    })
    var response =
      approved
      ? Responses.html(DevicePages.done(approved: true))
      : errorPage(DeviceMessages.codeNoLongerPending, status: .badRequest)
    for cookie in cookies { response.setCookie(cookie) }
    return response
  }

  /// The form and the activation transaction its `state` names.
  private func bound(
    _ request: Request, context: BasicRequestContext
  ) async -> (RequestParameters?, DeviceActivation?) {
    guard let form = await RequestParameters.body(of: request, context: context) else { return (nil, nil) }
    guard let id = RequestParameters.query(of: request).string("state") ?? form.string("state") else {
      return (form, nil)
    }
    return (form, tenant.withState({ $0.deviceActivations.get(id, now: tenant.clock.seconds) }))
  }

  func errorPage(_ error: AuthorizeError, status: HTTPResponse.Status) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: status)
  }
}
