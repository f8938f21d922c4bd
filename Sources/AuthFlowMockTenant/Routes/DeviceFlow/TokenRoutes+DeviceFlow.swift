import AuthFlowCore
import Hummingbird

extension TokenRoutes {
  /// `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4): polls a device code. The code
  /// is bound to the client that requested it, polled no faster than its interval (on the
  /// virtual clock), and used up by the answer that ends it.
  func deviceCode(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let code = parameters.string("device_code") else { throw OAuthError.missingParameter("device_code") }
    let now = tenant.clock.seconds
    switch tenant.transact({ $0.pollDeviceCode(code, clientID: client.clientID, now: now) }) {
    case .unknown: throw OAuthError.invalidDeviceCode
    case .expired: throw OAuthError.expiredDeviceCode
    case .slowDown: throw OAuthError.deviceSlowDown(interval: DeviceCodeRoutes.interval)
    case .pending: throw OAuthError.deviceAuthorizationPending
    case .denied: throw OAuthError.deviceAccessDenied
    case .approved(let authorization, let userID, let authTime):
      guard let user = tenant.user(id: userID) else { throw OAuthError.invalidDeviceCode }
      if user.blocked { throw OAuthError.blockedUser }
      let grant = Grant(
        clientID: client.clientID, userID: userID,
        scope: issuer.grantedScope(
          requested: authorization.scope, audience: authorization.audience, clientID: client.clientID),
        audience: authorization.audience, nonce: nil, organization: nil, authTime: authTime, includeAuthTime: false)
      return try await issuer.response(
        for: grant, client: client, requestedScope: authorization.scope, issueRefreshToken: true)
    }
  }
}
