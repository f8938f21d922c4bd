import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `/authorize?session_transfer_token=…` (Native to Web SSO, docs/protocol.md §2.1 and §3.2): a valid,
/// unexpired token is consumed (single use) and opens an SSO session for its user, so no login
/// page is shown. As Auth0 documents it, an invalid, used or expired token prompts the login page
/// even over an existing session, and a token of another user than the existing session's
/// revokes that session and prompts the login page.
struct SessionTransferRedemption {
  let tenant: MockTenant

  /// What the token did to the browser's session.
  struct Outcome: Sendable {
    var session: SSOSession?
    /// The new session cookie, or the one that clears a revoked session.
    var cookies: [Cookie]
    var forceLogin: Bool
  }

  /// Redeems `token` for the browser whose current session is `current`.
  func redeem(_ token: String, current: SSOSession?, request: Request) async -> Outcome {
    let now = tenant.clock.seconds
    guard let transfer = tenant.transact({ $0.redeemSessionTransfer(token, now: now) }),
      tenant.user(id: transfer.userID) != nil
    else { return Outcome(session: current, cookies: [], forceLogin: true) }
    if let current, current.userID != transfer.userID {
      if let id = request.cookies[AuthorizeRoutes.sessionCookie]?.value { tenant.transact({ $0.endSession(id) }) }
      let cleared = SessionCookie.cleared(tenant: tenant)
      return Outcome(session: nil, cookies: [cleared], forceLogin: true)
    }
    let session = SSOSession(userID: transfer.userID, authTime: now)
    let sessionID = RandomToken.make(bytes: 24)
    let expiresAt = now + Double(tenant.fixture.settings.sessionLifetime)
    tenant.transact { $0.openSession(session, id: sessionID, expiresAt: expiresAt) }
    let cookie = SessionCookie.make(sessionID, tenant: tenant)
    return Outcome(session: session, cookies: [cookie], forceLogin: false)
  }
}
