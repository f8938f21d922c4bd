import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `GET /userinfo` (docs/protocol.md §4.6): claims filtered by the access token's scope.
struct UserInfoRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "getUserInfo": { request, _ in await userInfo(request) },
      "postUserInfo": { request, _ in await userInfo(request) },
    ]
  }

  private func userInfo(_ request: Request) async -> Response {
    // The current 401 body is UNCONFIRMED (docs/protocol.md §4.6, §13): the plain `Unauthorized` form.
    let unauthorized = Responses.text("Unauthorized", status: .unauthorized)
    guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
      return unauthorized
    }
    let token = String(header.dropFirst(7)).trimmingWhitespace()
    guard let (userID, scope) = subjectAndScope(of: token),
      let user = tenant.user(id: userID)
    else { return unauthorized }
    let settings = tenant.fixture.settings
    var claims = UserClaims.claims(
      for: user, scope: scope, legacy: settings.legacyScopeClaims, updatedAt: settings.updatedAtFormat)
    for rule in tenant.fixture.claimRules where rule.tokens.contains(.idToken) && scope.contains("openid") {
      claims[rule.claim] = rule.value ?? rule.from.flatMap { UserClaims.lookup($0, in: user) }
    }
    return Responses.json(.object(claims))
  }

  /// The subject and scope of a token `/userinfo` accepts: an opaque access token the tenant issued
  /// and still remembers, unexpired (docs/protocol.md §3.2); or a JWT the tenant signed, unexpired, whose
  /// `aud` includes `https://{domain}/userinfo`. Anything else (an unknown or expired opaque token,
  /// a JWT for an API only) is nil: 401.
  private func subjectAndScope(of token: String) -> (String, [String])? {
    // A compact JWS has dots; an opaque token (base64url) never does.
    guard token.contains(".") else {
      let now = tenant.clock.seconds
      guard let issued = tenant.read({ $0.opaqueAccessTokens.live(token, now: now) }) else { return nil }
      return (issued.subject, issued.scope)
    }
    guard let jws = tenant.verifyIssued(token), let exp = jws.claims["exp"]?.doubleValue,
      exp > tenant.clock.seconds, jws.claims["iss"]?.stringValue == tenant.issuer
    else { return nil }
    let userinfoAudience = tenant.issuer + "userinfo"
    let audiences: [String]
    switch jws.claims["aud"] {
    case .string(let single)?: audiences = [single]
    case .array(let items)?: audiences = items.compactMap(\.stringValue)
    default: audiences = []
    }
    guard audiences.contains(userinfoAudience), let userID = jws.claims["sub"]?.stringValue else { return nil }
    return (userID, Scope.parse(jws.claims["scope"]?.stringValue))
  }
}
