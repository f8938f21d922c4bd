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

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showActivatePage": { request, _ in await start(request) },
      "submitActivateCode": { request, context in await enter(request, context: context) },
      "confirmActivation": { request, context in await confirm(request, context: context) },
    ]
  }

  /// A new activation transaction and the user-code form (pre-filled from `?user_code=`).
  private func start(_ request: Request) async -> Response {
    let activation = DeviceActivation(id: RandomToken.make(bytes: 24), csrf: RandomToken.make(bytes: 24))
    let expiresAt = tenant.clock.seconds + Self.lifetime
    tenant.transact { $0.startActivation(activation, expiresAt: expiresAt) }
    return Responses.html(
      DeviceFlowPages.activate(activation, userCode: RequestParameters.query(of: request).string("user_code")))
  }

  /// The user code: a live, undecided one leads to the confirmation page.
  private func enter(_ request: Request, context: BasicRequestContext) async -> Response {
    let outcome = await checked(request, context: context)
    guard case .accepted(let form, let activation) = outcome else { return outcome.refusal }
    guard let typed = form.string("user_code") else {
      return Responses.html(
        DeviceFlowPages.activate(activation, error: DeviceFlowMessages.missingUserCode), status: .badRequest)
    }
    let now = tenant.clock.seconds
    // Looked up and counted in one step: concurrent guesses never pass `maxFailures`.
    let entry = tenant.transact {
      $0.enterUserCode(
        typed, activation: activation.id, now: now, maxFailures: Self.maxFailures, lifetime: Self.lifetime)
    }
    switch entry {
    case .unknownActivation:
      return DeviceFlowMessages.unknownActivation.page()
    case .tooManyAttempts:
      return Responses.html(
        LoginPages.error(code: "too_many_attempts", description: DeviceFlowMessages.tooManyAttempts),
        status: .tooManyRequests)
    case .wrong(let counted):
      return Responses.html(
        DeviceFlowPages.activate(counted, userCode: typed, error: DeviceFlowMessages.invalidUserCode),
        status: .badRequest)
    case .accepted(let updated, let authorization):
      let clientName = tenant.client(id: authorization.clientID)?.name ?? "the application"
      return Responses.html(DeviceFlowPages.confirm(updated, authorization: authorization, clientName: clientName))
    }
  }

  /// Confirm or decline. Confirming logs in (the SSO session when there is one) and approves. The
  /// activation transaction is used up by the first confirmation or decline.
  private func confirm(_ request: Request, context: BasicRequestContext) async -> Response {
    let outcome = await checked(request, context: context)
    guard case .accepted(let form, let activation) = outcome else { return outcome.refusal }
    let now = tenant.clock.seconds
    guard let userCode = activation.userCode,
      let authorization = tenant.read({ $0.deviceCodes.pending(userCode: userCode, now: now) })
    else { return DeviceFlowMessages.codeNoLongerPending.page() }
    let action = form.string("action")
    guard action == "deny" || action == "confirm" else { return AuthorizeError.missingParameter("action").page() }
    guard tenant.transact({ $0.takeActivation(activation.id, now: now) }) != nil else {
      return DeviceFlowMessages.unknownActivation.page()
    }
    switch action {
    case "deny":
      _ = tenant.transact { $0.decideUserCode(userCode, .denied, now: now) }
      return Responses.html(DeviceFlowPages.done(approved: false))
    default:
      if let session = await AuthorizeRoutes(tenant: tenant).currentSession(request) {
        return await approve(userCode, userID: session.userID, authTime: session.authTime)
      }
      let login = AuthorizeRequest(
        clientID: authorization.clientID, redirectURI: "", responseType: "device_code", scope: authorization.scope,
        audience: authorization.audience, deviceUserCode: userCode)
      let transaction = LoginTransaction(
        id: RandomToken.make(bytes: 24), request: login, csrf: RandomToken.make(bytes: 24))
      tenant.transact { $0.startLogin(transaction, expiresAt: now + AuthorizeRoutes.loginLifetime) }
      return Responses.redirect(
        "/u/login?state=\(FormEncoding.escape(transaction.id))",
        cookies: [TransactionBinding.cookie(for: transaction, tenant: tenant)])
    }
  }

  /// Approves `userCode` for the user who just logged in (or whose session it is) and shows the
  /// final page; `cookies` carry a new SSO session.
  func approve(_ userCode: String, userID: String, authTime: Double, cookies: [Cookie] = []) async -> Response {
    let now = tenant.clock.seconds
    let approved = tenant.transact {
      $0.decideUserCode(userCode, .approved(userID: userID, authTime: authTime), now: now)
    }
    var response =
      approved ? Responses.html(DeviceFlowPages.done(approved: true)) : DeviceFlowMessages.codeNoLongerPending.page()
    for cookie in cookies { response.setCookie(cookie) }
    return response
  }

  /// A form post of an activation transaction: the form and the live transaction its `state`
  /// names, with its `_csrf` checked (``GuardedFormPost/checkCSRF(_:context:find:csrf:unknown:invalidCSRF:)``).
  private func checked(
    _ request: Request, context: BasicRequestContext
  ) async -> GuardedFormPost.Outcome<DeviceActivation> {
    let now = tenant.clock.seconds
    return await GuardedFormPost.checkCSRF(
      request, context: context,
      find: { state in state.flatMap { id in tenant.read { $0.deviceActivations.live(id, now: now) } } },
      csrf: \.csrf, unknown: DeviceFlowMessages.unknownActivation, invalidCSRF: DeviceFlowMessages.invalidCSRF)
  }
}
