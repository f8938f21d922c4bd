import AuthFlowCore
import Hummingbird

/// `GET /v2/logout` (docs/protocol.md §2.3): ends the SSO session and redirects to an allowed `returnTo`;
/// and its OIDC alternative `/oidc/logout` (RP-initiated logout, the discovery document's
/// `end_session_endpoint`), which standard OpenID clients use.
struct LogoutRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "logout": { request, _ in await logout(request) },
      "oidcLogout": { request, _ in await oidcLogout(RequestParameters.query(of: request), request) },
      "oidcLogoutWithForm": { request, context in
        let parameters =
          await RequestParameters.body(of: request, context: context) ?? RequestParameters.query(of: request)
        return await oidcLogout(parameters, request)
      },
    ]
  }

  /// RP-initiated logout: the client is `client_id` or the `aud` of `id_token_hint` (which must carry
  /// one of the tenant's signatures; an expired one is fine). `post_logout_redirect_uri` must be one
  /// of that client's Allowed Logout URLs, or of the tenant's when there is no client; `state` is
  /// echoed on the redirect.
  private func oidcLogout(_ parameters: RequestParameters, _ request: Request) async -> Response {
    if let repeated = parameters.repeatedParameter { return errorPage(repeatedParameter: repeated) }
    var clientID = parameters.string("client_id")
    if let hint = parameters.string("id_token_hint") {
      guard let jws = tenant.verifyIssued(hint), jws.claims["iss"]?.stringValue == tenant.issuer else {
        return errorPage(Self.invalidHint)
      }
      let audience = jws.claims["aud"]?.stringValue ?? jws.claims["aud"]?.arrayValue?.first?.stringValue
      if let clientID, clientID != audience { return errorPage(Self.hintForAnotherClient) }
      clientID = audience
    }
    var allowed = tenant.fixture.settings.allowedLogoutURLs
    if let clientID {
      guard let client = tenant.client(id: clientID) else {
        return errorPage(AuthorizeError.unknownClient(clientID).description)
      }
      allowed = client.allowedLogoutURLs
    }
    let redirect = parameters.string("post_logout_redirect_uri")
    if let redirect, !allowed.contains(redirect) { return errorPage(Self.redirectNotAllowed(redirect)) }
    let expired = await endSession(request)
    guard let redirect else {
      var response = Responses.html(LoginPages.loggedOut())
      response.setCookie(expired)
      return response
    }
    let state = parameters.string("state").map { [("state", $0)] } ?? []
    return Responses.redirect(state.isEmpty ? redirect : FormEncoding.append(state, to: redirect), cookies: [expired])
  }

  /// Forgets the SSO session of the request's cookie; returns the cookie that clears it.
  private func endSession(_ request: Request) async -> Cookie {
    if let sessionID = request.cookies[AuthorizeRoutes.sessionCookie]?.value {
      tenant.transact { $0.endSession(sessionID) }
    }
    return SessionCookie.cleared(tenant: tenant)
  }

  private func logout(_ request: Request) async -> Response {
    let query = RequestParameters.query(of: request)
    if let repeated = query.repeatedParameter { return errorPage(repeatedParameter: repeated) }
    var allowed = tenant.fixture.settings.allowedLogoutURLs
    if let clientID = query.string("client_id") {
      guard let client = tenant.client(id: clientID) else {
        return errorPage(AuthorizeError.unknownClient(clientID).description)
      }
      allowed = client.allowedLogoutURLs
    }
    let returnTo = query.string("returnTo") ?? (query.has("client_id") ? allowed.first : nil)
    if let returnTo, !allowed.contains(returnTo) { return errorPage(Self.notAllowed(returnTo)) }
    let expired = await endSession(request)
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

  static func redirectNotAllowed(_ uri: String) -> String {
    "The \"post_logout_redirect_uri\" parameter \"\(uri)\" is not defined as a valid URL in \"Allowed Logout URLs\"."
  }

  static let invalidHint = "The id_token_hint is not a valid ID token issued by this tenant."
  static let hintForAnotherClient = "The client_id does not match the audience of the id_token_hint."

  /// A parameter given twice (`returnTo=https://allowed/&returnTo=https://evil/`): the allow-list
  /// would judge one value and a proxy or browser that reads the other would follow it, so neither
  /// is read and nothing is ended (RFC 6749 §3.1's rule, as on `/authorize`). UNCONFIRMED on Auth0.
  private func errorPage(repeatedParameter name: String) -> Response {
    errorPage(AuthorizeError.repeatedParameter(name).description)
  }

  private func errorPage(_ description: String) -> Response {
    Responses.html(LoginPages.error(code: "invalid_request", description: description), status: .badRequest)
  }
}
