import AuthFlowCore
import Hummingbird

extension TokenRoutes {
  /// `urn:openid:params:grant-type:ciba`: polls a `/bc-authorize` request. Pending requests answer
  /// `authorization_pending`, or `slow_down` (with `Retry-After`, and 5 s more to wait from then on)
  /// when polled again within the interval; a denial answers `access_denied` once; an expired
  /// request (virtual clock) answers `expired_token`; an approved one gives the tokens once.
  func ciba(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let id = parameters.string("auth_req_id") else { throw OAuthError.missingParameter("auth_req_id") }
    let now = tenant.clock.seconds
    let request: BackchannelRequest
    switch tenant.transact({
      $0.pollBackchannelRequest(id, clientID: client.clientID, now: now, penalty: BackchannelRoutes.pollInterval)
    }) {
    case .unknown: throw OAuthError.cibaUnknownRequest
    case .expired: throw OAuthError.cibaExpired
    case .pending(let slowDown, let interval):
      throw slowDown ? OAuthError.cibaSlowDown(interval: interval) : OAuthError.cibaPending
    case .denied: throw OAuthError.cibaDenied
    case .approved(let approved): request = approved
    }
    guard let user = tenant.user(id: request.userID) else {
      throw OAuthError.cibaUnknownRequest
    }
    if user.blocked { throw OAuthError.blockedUser }
    let grant = Grant(
      clientID: client.clientID, userID: user.userID,
      scope: issuer.grantedScope(requested: request.scope, audience: request.audience), audience: request.audience,
      nonce: nil, organization: nil, authTime: request.decidedAt ?? now, includeAuthTime: false)
    var body = try await issuer.response(
      for: grant, client: client, requestedScope: request.scope, issueRefreshToken: true)
    if let details = request.authorizationDetails { body["authorization_details"] = details }
    return body
  }
}
