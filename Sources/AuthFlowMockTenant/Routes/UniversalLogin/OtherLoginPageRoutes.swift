import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The opt-in login pages of other providers (`tenant.login_page` of the fixture), for tests of
/// logins the tenant profile describes: `/u/identify` (one field that names the user) and
/// `/login.html` (a JavaScript app that signs in with `POST /api/auth/` and continues the
/// authorization request with `continue=`). With the default style they answer 404, as Auth0 does.
struct OtherLoginPageRoutes {
  let tenant: MockTenant

  /// The cookie that binds an app login to the browser that signed in.
  static let appCookie = "app_login"
  /// How long an app login may wait for its `continue`, seconds.
  static let appLoginLifetime = 300.0

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showIdentifierPage": { request, _ in await showIdentify(request) },
      "submitIdentifier": { request, context in await submitIdentify(request, context: context) },
      "showAppLoginPage": { _, _ in appPage() },
      "appLogin": { request, context in await appLogin(request, context: context) },
    ]
  }

  private var style: LoginPageStyle { tenant.fixture.settings.loginPage }

  private static let notFound = Responses.json(
    ["error": "not_found", "error_description": "Not Found"], status: .notFound)

  // MARK: One field

  private func showIdentify(_ request: Request) async -> Response {
    guard case .singleField(let field) = style else { return Self.notFound }
    guard let transaction = tenant.loginTransaction(RequestParameters.query(of: request).string("state")) else {
      return AuthorizeError.unknownTransaction.page()
    }
    return Responses.html(OtherLoginPages.identify(transaction: transaction, field: field))
  }

  private func submitIdentify(_ request: Request, context: BasicRequestContext) async -> Response {
    guard case .singleField(let field) = style else { return Self.notFound }
    let post = await GuardedFormPost.check(request, context: context, tenant: tenant) { tenant.loginTransaction($0) }
    guard case .accepted(let form, let transaction) = post else { return post.refusal }
    guard let identifier = form.string(field), !identifier.isEmpty else {
      return Responses.html(
        OtherLoginPages.identify(transaction: transaction, field: field, error: OtherLoginPages.missingIdentifier),
        status: .badRequest)
    }
    guard let user = await user(identifier) else {
      return Responses.html(
        OtherLoginPages.identify(transaction: transaction, field: field, error: OtherLoginPages.unknownUser),
        status: .badRequest)
    }
    return await UniversalLoginRoutes(tenant: tenant).finishLogin(transaction.id, userID: user.userID)
  }

  // MARK: A JavaScript app

  private func appPage() -> Response {
    guard style == .app else { return Self.notFound }
    return Responses.html(OtherLoginPages.app)
  }

  /// `POST /api/auth/` `{"username", "password"}`: 200 `{"continue": TOKEN}` with the binding
  /// cookie; 401 for wrong credentials, 400 for a body without them.
  private func appLogin(_ request: Request, context: BasicRequestContext) async -> Response {
    guard style == .app else { return Self.notFound }
    guard let body = await RequestParameters.body(of: request, context: context),
      let username = body.string("username"), let password = body.string("password")
    else {
      return Responses.json(
        ["error": "invalid_request", "error_description": .string(OtherLoginPages.missingCredentials)],
        status: .badRequest)
    }
    let connection = "Username-Password-Authentication"
    guard let user = tenant.read({ $0.users.find(username, connection: connection) }),
      let expected = user.password,
      RandomToken.constantTimeEquals(expected, password)
    else {
      return Responses.json(
        ["error": "access_denied", "error_description": .string(LoginMessages.wrongCredentials)], status: .unauthorized)
    }
    let token = RandomToken.make(bytes: 24)
    let binding = RandomToken.make(bytes: 24)
    let now = tenant.clock.seconds
    let pending = Self.pendingKey(token: token, binding: binding)
    tenant.transact {
      $0.openSession(
        SSOSession(userID: user.userID, authTime: now), id: pending, expiresAt: now + Self.appLoginLifetime)
    }
    var response = Responses.json(["continue": .string(token)])
    let secure = tenant.baseURL.lowercased().hasPrefix("https://")
    response.setCookie(
      Cookie(
        name: Self.appCookie, value: binding, maxAge: Int(Self.appLoginLifetime), path: "/", secure: secure,
        httpOnly: true, sameSite: .lax))
    return response
  }

  /// `/authorize?…&continue=TOKEN` after an app login: the login it names, if this browser made
  /// it (its cookie), ends the authorization as a Universal Login would; nil when the tenant has
  /// no app login page (the parameter is then ignored, as Auth0 ignores unknown ones).
  func resume(_ authorizeRequest: AuthorizeRequest, token: String, request: Request) async -> Response? {
    guard style == .app else { return nil }
    let now = tenant.clock.seconds
    guard let binding = request.cookies[Self.appCookie]?.value,
      let pending = tenant.transact({ $0.takeSession(Self.pendingKey(token: token, binding: binding), now: now) })
    else {
      return OtherLoginPages.unknownContinuation.page()
    }
    let transaction = LoginTransaction(
      id: RandomToken.make(bytes: 24), request: authorizeRequest, csrf: RandomToken.make(bytes: 24))
    var response = await UniversalLoginRoutes(tenant: tenant).completeLogin(transaction, userID: pending.userID)
    response.setCookie(Cookie(name: Self.appCookie, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax))
    return response
  }

  /// Where `/authorize` sends a browser that must log in, when the style is not Universal Login.
  func loginLocation(state: String, query: String) -> String? {
    switch style {
    case .universalLogin: return nil
    case .singleField: return "/u/identify?state=\(FormEncoding.escape(state))"
    case .app: return "/login.html?return_to=\(FormEncoding.escape("/authorize?" + query))"
    }
  }

  private static func pendingKey(token: String, binding: String) -> String {
    "app-login:\(token):\(binding)"
  }

  private func user(_ identifier: String) async -> UserRecord? {
    if let user = tenant.user(id: identifier) { return user }
    return tenant.read { $0.users.find(identifier, connection: "Username-Password-Authentication") }
  }
}
