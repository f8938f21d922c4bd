import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `GET /v2/logout` (PROTOCOL §2.3): ends the SSO session and redirects to an allowed `returnTo`;
/// `GET /oidc/logout`, its OpenID Connect RP-initiated form (the discovery document's
/// `end_session_endpoint`).
struct LogoutRoutes {
  let tenant: MockTenant

  func register(on router: Router<BasicRequestContext>) {
    router.get("/v2/logout") { request, _ in await logout(request) }
    router.get("/oidc/logout") { request, _ in await oidcLogout(request) }
  }

  /// `post_logout_redirect_uri` must be an allowed logout URL of the client named by `client_id`
  /// or by the `aud` of a valid `id_token_hint`; `state` is passed back on the redirect.
  private func oidcLogout(_ request: Request) async -> Response {
    let query = RequestParameters.query(of: request)
    var clientID = query.string("client_id")
    if let hint = query.string("id_token_hint") {
      guard let token = try? tenant.verificationKeys.verify(hint) else {
        return errorPage(Self.invalidHint)
      }
      let audience = token.claims["aud"]?.stringValue ?? token.claims["aud"]?.arrayValue?.first?.stringValue
      if clientID == nil { clientID = audience }
      if let audience, audience != clientID { return errorPage(Self.hintMismatch) }
    }
    var redirect = query.string("post_logout_redirect_uri")
    if let target = redirect {
      guard let clientID, let client = tenant.fixture.client(id: clientID) else {
        return errorPage(Self.clientRequired)
      }
      guard client.allowedLogoutURLs.contains(target) else { return errorPage(Self.notAllowed(target)) }
      if let state = query.string("state") { redirect = FormEncoding.append([("state", state)], to: target) }
    }
    return await endSession(request, redirect: redirect)
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
    return await endSession(request, redirect: returnTo)
  }

  /// Removes the SSO session and its cookie; redirects, or shows the logged-out page.
  private func endSession(_ request: Request, redirect returnTo: String?) async -> Response {
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

  static let invalidHint = "The id_token_hint is not a valid ID token issued by this tenant."
  static let hintMismatch = "The client_id does not match the audience of the id_token_hint."
  static let clientRequired = "A post_logout_redirect_uri needs a client_id or an id_token_hint."

  private func errorPage(_ description: String) -> Response {
    Responses.html(LoginPages.error(code: "invalid_request", description: description), status: .badRequest)
  }
}
