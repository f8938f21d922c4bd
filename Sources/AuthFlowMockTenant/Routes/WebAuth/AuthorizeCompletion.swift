import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The end of an authorization: a code (or implicit tokens) or an error, sent to the callback.
struct AuthorizeCompletion {
  let tenant: MockTenant

  /// Issues the result for `userID` and redirects to the callback; `cookies` carry a new session.
  func finish(
    _ request: AuthorizeRequest, userID: String, authTime: Double, cookies: [Cookie] = []
  ) async
    -> Response
  {
    guard let user = tenant.user(id: userID) else {
      return redirect(request, error: .loginRequired)
    }
    if user.blocked { return redirect(request, error: .blockedUser, cookies: cookies) }
    if let userCode = request.deviceUserCode {
      return await ActivateRoutes(tenant: tenant).approve(
        userCode, userID: userID, authTime: authTime, cookies: cookies)
    }
    if request.organization == nil, request.organizationSelection {
      return await OrganizationSelectionRoutes(tenant: tenant).begin(
        request, userID: userID, authTime: authTime, cookies: cookies)
    }
    if let organization = request.organization {
      guard tenant.read({ $0.organizations.isMember(user.userID, of: organization.id) }) else {
        return redirect(request, error: .notAMember(organization.name), cookies: cookies)
      }
      guard organization.allowsConnection(user.connection) else {
        return redirect(request, error: .connectionNotEnabledForOrganization, cookies: cookies)
      }
    }
    var pairs: [(String, String)] = []
    let types = Set(request.responseType.split(separator: " "))
    var code: String?
    if types.contains("code") {
      let issuedCode = RandomToken.make(bytes: 32)
      let expiresAt = tenant.clock.seconds + Double(tenant.fixture.settings.authorizationCodeLifetime)
      let issued = IssuedCode(request: request, userID: userID, authTime: authTime)
      tenant.transact { $0.issueCode(issuedCode, for: issued, expiresAt: expiresAt) }
      pairs.append(("code", issuedCode))
      code = issuedCode
    }
    if types != ["code"] {
      let grant = Grant(
        clientID: request.clientID, userID: userID,
        scope: TokenIssuer(tenant: tenant).grantedScope(
          requested: request.scope.filter { $0 != "offline_access" }, audience: request.audience,
          clientID: request.clientID),
        audience: request.audience, nonce: request.nonce, organization: request.organization, authTime: authTime,
        includeAuthTime: request.maxAge != nil)
      let issuer = TokenIssuer(tenant: tenant)
      let now = tenant.clock.epoch
      do {
        var accessToken: String?
        if types.contains("token") {
          let token = try issuer.accessToken(for: grant, user: user, now: now)
          accessToken = token
          pairs.append(("access_token", token))
          pairs.append(("expires_in", String(tenant.fixture.settings.accessTokenLifetime)))
          pairs.append(("token_type", "Bearer"))
        }
        if types.contains("id_token") {
          pairs.append(
            ("id_token", try issuer.idToken(for: grant, user: user, now: now, accessToken: accessToken, code: code)))
        }
      } catch {
        return redirect(request, error: AuthorizeError(code: "server_error", description: "signing failed"))
      }
    }
    if let state = request.state { pairs.append(("state", state)) }
    return AuthorizationResponse.deliver(pairs, for: request, cookies: cookies)
  }

  /// An error on the redirect channel, with the state.
  func redirect(_ request: AuthorizeRequest, error: AuthorizeError, cookies: [Cookie] = []) -> Response {
    // A device activation has no callback: its errors are pages.
    if request.deviceUserCode != nil {
      var page = error.page()
      for cookie in cookies { page.setCookie(cookie) }
      return page
    }
    var pairs = [("error", error.code), ("error_description", error.description)]
    if let state = request.state { pairs.append(("state", state)) }
    return AuthorizationResponse.deliver(pairs, for: request, cookies: cookies)
  }
}
