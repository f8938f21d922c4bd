/// Refresh tokens grouped in families (one per login), with rotation and reuse detection
/// (PROTOCOL §3.3).
actor RefreshTokenStore {
  struct Token: Sendable {
    var family: String
    var grant: Grant
    /// When the token was exchanged (rotating mode); nil while unused.
    var usedAt: Double?
    /// The token that replaced this one.
    var successor: String?
  }

  struct Family: Sendable {
    var expiresAt: Double
    var revoked = false
    var latest: String
  }

  enum Outcome: Sendable {
    /// Exchange accepted: the grant, and the new token when rotating.
    case accepted(Grant, newToken: String?)
    case rejected
  }

  private var tokens: [String: Token] = [:]
  private var families: [String: Family] = [:]

  /// Starts a family for a new login.
  func issue(_ grant: Grant, token: String, family: String, now: Double, lifetime: Double) {
    tokens[token] = Token(family: family, grant: grant)
    families[family] = Family(expiresAt: now + lifetime, latest: token)
  }

  /// Exchanges `token` for `clientID`. `newToken` is the successor to record when rotating.
  func exchange(
    _ token: String, clientID: String, now: Double, rotate: Bool, reuseLeeway: Double, newToken: String
  ) -> Outcome {
    guard var record = tokens[token], record.grant.clientID == clientID, var family = families[record.family],
      !family.revoked, family.expiresAt > now
    else { return .rejected }
    guard rotate else { return .accepted(record.grant, newToken: nil) }
    if let usedAt = record.usedAt {
      // Reuse: tolerated only for the immediately previous token, inside the leeway.
      let isPrevious = record.successor == family.latest
      guard isPrevious, reuseLeeway > 0, now - usedAt <= reuseLeeway else {
        family.revoked = true
        families[record.family] = family
        return .rejected
      }
    }
    record.usedAt = record.usedAt ?? now
    record.successor = newToken
    tokens[token] = record
    tokens[newToken] = Token(family: record.family, grant: record.grant)
    family.latest = newToken
    families[record.family] = family
    return .accepted(record.grant, newToken: newToken)
  }

  /// Revokes the family of `token` when it belongs to `clientID`. Unknown tokens are ignored.
  func revoke(_ token: String, clientID: String) {
    guard let record = tokens[token], record.grant.clientID == clientID else { return }
    families[record.family]?.revoked = true
  }

  /// Revokes a whole family (the tokens of a code that was used twice).
  func revoke(family: String) {
    families[family]?.revoked = true
  }

  func removeAll() {
    tokens.removeAll()
    families.removeAll()
  }
}
