import AuthFlowCore
import Hummingbird

/// `GET /v2/logout` (PROTOCOL §2.3): ends the SSO session and redirects to an allowed `returnTo`.
struct LogoutRoutes {
  let tenant: MockTenant

  func register(on router: Router<BasicRequestContext>) {
    router.get("/v2/logout") { request, _ in await logout(request) }
  }

  private func logout(_ request: Request) async -> Response {
    let query = RequestParameters.query(of: request)
    var allowed = tenant.fixture.settings.allowedLogoutURLs
    if let clientID = query.string("client_id") {
      guard let client = tenant.fixture.client(id: clientID) else {
        return errorPage(AuthorizeError.unknownClient(clientID).description)
      }
      allowed = client.allowedLogoutURLs
    }
    let returnTo = query.string("returnTo") ?? (query.has("client_id") ? allowed.first : nil)
    if let returnTo, !allowed.contains(returnTo) { return errorPage(Self.notAllowed(returnTo)) }
    if let sessionID = request.cookies[AuthorizeRoutes.sessionCookie]?.value {
      await tenant.sessions.remove(sessionID)
    }
    let expired = Cookie(name: AuthorizeRoutes.sessionCookie, value: "", maxAge: 0, path: "/", httpOnly: true)
    guard let returnTo else {
      var response = Responses.html(LoginPages.loggedOut())
      response.setCookie(expired)
      return response
    }
    return Responses.redirect(returnTo, cookies: [expired])
  }

  static func notAllowed(_ returnTo: String) -> String {
    "The \"returnTo\" querystring parameter \"\(returnTo)\" is not defined as a valid URL in \"Allowed Logout URLs\"."
  }

  private func errorPage(_ description: String) -> Response {
    Responses.html(LoginPages.error(code: "invalid_request", description: description), status: .badRequest)
  }
}
