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
    switch await tenant.backchannel.lookup(id, now: now) {
    case .missing: throw OAuthError.cibaUnknownRequest
    case .expired: throw OAuthError.cibaExpired
    case .live(let found): request = found
    }
    // Another client's request is as good as unknown to this one.
    guard request.clientID == client.clientID else { throw OAuthError.cibaUnknownRequest }
    switch request.status {
    case .pending:
      var polled = request
      let tooFast = request.lastPoll.map { now - $0 < Double(request.interval) } ?? false
      polled.lastPoll = now
      if tooFast { polled.interval += BackchannelRoutes.pollInterval }
      await tenant.backchannel.update(polled, id: id)
      throw tooFast ? OAuthError.cibaSlowDown(interval: polled.interval) : OAuthError.cibaPending
    case .denied:
      await tenant.backchannel.remove(id)
      throw OAuthError.cibaDenied
    case .approved:
      await tenant.backchannel.remove(id)
    }
    guard let user = await tenant.users.user(id: request.userID) else { throw OAuthError.cibaUnknownRequest }
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
