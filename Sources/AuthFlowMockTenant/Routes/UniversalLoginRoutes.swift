import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The Universal Login pages: `/u/login` and `/u/signup`, GET renders, POST submits. Each form is
/// bound to its transaction by a CSRF field.
struct UniversalLoginRoutes {
  let tenant: MockTenant

  func register(on router: Router<BasicRequestContext>) {
    router.get("/u/login") { request, _ in await show(request, signup: false) }
    router.get("/u/signup") { request, _ in await show(request, signup: true) }
    router.post("/u/login") { request, context in await submit(request, context: context, signup: false) }
    router.post("/u/signup") { request, context in await submit(request, context: context, signup: true) }
  }

  private func show(_ request: Request, signup: Bool) async -> Response {
    guard let transaction = await transaction(RequestParameters.query(of: request).string("state")) else {
      return errorPage(.unknownTransaction, status: .badRequest)
    }
    return render(transaction, signup: signup)
  }

  private func submit(_ request: Request, context: BasicRequestContext, signup: Bool) async -> Response {
    let query = RequestParameters.query(of: request)
    guard let form = await RequestParameters.body(of: request, context: context),
      let transaction = await transaction(query.string("state") ?? form.string("state"))
    else { return errorPage(.unknownTransaction, status: .badRequest) }
    guard let csrf = form.string("_csrf"), RandomToken.constantTimeEquals(csrf, transaction.csrf) else {
      return errorPage(.invalidCSRF, status: .forbidden)
    }
    let identifier = form.string(signup ? "email" : "username") ?? form.string("email")
    guard let identifier, let password = form.string("password") else {
      return render(transaction, signup: signup, error: LoginMessages.missingFields, status: .badRequest)
    }
    let connection = transaction.request.connection ?? "Username-Password-Authentication"
    let userID: String
    if signup {
      guard password.count >= 8 else {
        return render(
          transaction, signup: true, error: LoginMessages.passwordTooWeak, value: identifier, status: .badRequest)
      }
      guard await tenant.users.find(identifier, connection: connection) == nil else {
        return render(
          transaction, signup: true, error: LoginMessages.userExists, value: identifier, status: .badRequest)
      }
      let user = UserRecord(
        profile: identifier, userID: "auth0|\(RandomToken.make(bytes: 12))", connection: connection, email: identifier,
        emailVerified: false, password: password, updatedAt: tenant.clock.seconds)
      await tenant.users.insert(user)
      userID = user.userID
    } else {
      let failureKey = "\(identifier.lowercased())|ul"
      if await tenant.users.failureCount(key: failureKey) >= tenant.fixture.settings.bruteForceLimit {
        return render(
          transaction, signup: false, error: LoginMessages.tooManyAttempts, value: identifier, status: .tooManyRequests)
      }
      guard let user = await tenant.users.find(identifier, connection: connection), let expected = user.password,
        RandomToken.constantTimeEquals(expected, password)
      else {
        _ = await tenant.users.recordFailure(key: failureKey)
        return render(
          transaction, signup: false, error: LoginMessages.wrongCredentials, value: identifier, status: .badRequest)
      }
      await tenant.users.clearFailures(key: failureKey)
      userID = user.userID
    }
    await tenant.transactions.remove(transaction.id)
    let now = tenant.clock.seconds
    let sessionID = RandomToken.make(bytes: 24)
    await tenant.sessions.insert(
      SSOSession(userID: userID, authTime: now), key: sessionID,
      expiresAt: now + Double(tenant.fixture.settings.sessionLifetime))
    let cookie = Cookie(name: AuthorizeRoutes.sessionCookie, value: sessionID, path: "/", httpOnly: true)
    return await AuthorizeCompletion(tenant: tenant).finish(
      transaction.request, userID: userID, authTime: now, cookies: [cookie])
  }

  private func transaction(_ id: String?) async -> LoginTransaction? {
    guard let id else { return nil }
    return await tenant.transactions.get(id, now: tenant.clock.seconds)
  }

  private func render(
    _ transaction: LoginTransaction, signup: Bool, error: String? = nil, value: String? = nil,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    let clientName = tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
    let text =
      signup
      ? LoginPages.signup(transaction: transaction, clientName: clientName, error: error, email: value)
      : LoginPages.login(transaction: transaction, clientName: clientName, error: error, username: value)
    return Responses.html(text, status: status)
  }

  private func errorPage(_ error: AuthorizeError, status: HTTPResponse.Status) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: status)
  }
}
