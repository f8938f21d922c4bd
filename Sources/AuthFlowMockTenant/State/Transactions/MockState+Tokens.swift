import AuthFlowCore

/// The transactions of codes and tokens (docs/protocol.md §3): authorization codes, refresh tokens, opaque
/// access tokens, session transfer tokens, pushed authorization requests and exchanged subject
/// tokens. Each is one step under the owner's lock (``MockStateOwner/transact(_:)``), so two
/// concurrent requests can never both win.
extension MockState {
  /// Remembers an authorization code `/authorize` issued.
  mutating func issueCode(_ code: String, for issued: IssuedCode, expiresAt: Double) {
    codes.insert(issued, key: code, expiresAt: expiresAt)
  }

  /// What presenting an authorization code found.
  enum CodeRedemption: Sendable {
    /// The code was live: it is now used up and marked redeemed with the refresh-token family its
    /// tokens will start.
    case redeemed(IssuedCode)
    /// The code was redeemed before: the family it started is revoked (RFC 6749 §4.1.2).
    case reused
    /// Unknown or expired.
    case unknown
  }

  /// Redeems an authorization code (docs/protocol.md §3.1): takes it, and in the same step marks it
  /// redeemed with `family` (kept for `familyLifetime`, the refresh tokens' lifetime). A code that
  /// was redeemed already revokes its family — even when the first exchange has not stored its
  /// refresh token yet (the family is then born revoked).
  mutating func redeemCode(_ code: String, family: String, now: Double, familyLifetime: Double) -> CodeRedemption {
    if let issued = codes.take(code, now: now) {
      redeemedCodes.insert(family, key: code, expiresAt: now + familyLifetime)
      return .redeemed(issued)
    }
    guard let family = redeemedCodes.take(code, now: now) else { return .unknown }
    refreshTokens.revoke(family: family, now: now)
    return .reused
  }

  /// Starts a refresh-token family with its first token.
  mutating func issueRefreshToken(_ token: String, for grant: Grant, family: String, now: Double, lifetime: Double) {
    refreshTokens.issue(grant, token: token, family: family, now: now, lifetime: lifetime)
  }

  /// Rotates a refresh token (docs/protocol.md §3.3) in one step: the token is exchanged for `newToken`
  /// when rotating, and a reuse outside the leeway revokes its whole family.
  mutating func rotateRefreshToken(
    _ token: String, clientID: String, now: Double, rotate: Bool, reuseLeeway: Double, newToken: String
  ) -> RefreshTokenStore.Outcome {
    refreshTokens.exchange(
      token, clientID: clientID, now: now, rotate: rotate, reuseLeeway: reuseLeeway, newToken: newToken)
  }

  /// Revokes the family of `token` when `clientID` holds it (`/oauth/revoke`); anything else is a
  /// no-op.
  mutating func revokeRefreshToken(_ token: String, clientID: String) {
    refreshTokens.revoke(token, clientID: clientID)
  }

  /// Remembers an opaque access token until it expires (`/userinfo` accepts it).
  mutating func rememberOpaqueAccessToken(_ token: String, _ issued: OpaqueAccessToken, expiresAt: Double) {
    opaqueAccessTokens.insert(issued, key: token, expiresAt: expiresAt)
  }

  /// Remembers a session transfer token issued by `/oauth/token`.
  mutating func issueSessionTransfer(_ token: String, _ transfer: SessionTransfer, expiresAt: Double) {
    sessionTransfers.insert(transfer, key: token, expiresAt: expiresAt)
  }

  /// Redeems a session transfer token (docs/protocol.md §3.2): single use.
  mutating func redeemSessionTransfer(_ token: String, now: Double) -> SessionTransfer? {
    sessionTransfers.take(token, now: now)
  }

  /// Stores the parameters of a pushed authorization request (`/oauth/par`) under its
  /// `request_uri`.
  mutating func pushAuthorizationRequest(_ parameters: [String: Value], uri: String, expiresAt: Double) {
    pushedRequests.insert(parameters, key: uri, expiresAt: expiresAt)
  }

  /// Uses up a pushed authorization request (`request_uri`) for `clientID`: nil when unknown,
  /// used, expired, or pushed by another client — which does not burn it.
  mutating func consumePushedRequest(_ uri: String, clientID: String, now: Double) -> [String: Value]? {
    guard let pushed = pushedRequests.get(uri, now: now), pushed["client_id"]?.stringValue == clientID else {
      return nil
    }
    return pushedRequests.take(uri, now: now)
  }

  /// Records a subject token (an Apple authorization code) as exchanged; false when it was seen
  /// before, live or expired. Checked and recorded in one step.
  mutating func redeemSubjectToken(_ token: String, now: Double, rememberUntil: Double) -> Bool {
    guard case .missing = usedSubjectTokens.lookup(token, now: now) else { return false }
    usedSubjectTokens.insert(true, key: token, expiresAt: rememberUntil)
    return true
  }
}
