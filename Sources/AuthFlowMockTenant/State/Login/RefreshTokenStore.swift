import Foundation

/// Refresh tokens grouped in families (one per login), with rotation and reuse detection
/// (docs/protocol.md §3.3).
///
/// Bounded (``MockStateLimits``): families expired (or revoked) for longer than `expiredGrace`
/// are purged with their tokens every `purgeInterval` logins, and past `maxEntriesPerStore`
/// families the ones nearest expiry go.
struct RefreshTokenStore: Sendable {
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
  private let limits: MockStateLimits
  private var issuesSincePurge = 0

  init(limits: MockStateLimits = MockStateLimits()) {
    self.limits = limits
  }

  /// Starts a family for a new login. A family revoked before its first token was stored (its
  /// code was reused while the first exchange was still signing) stays revoked.
  mutating func issue(_ grant: Grant, token: String, family: String, now: Double, lifetime: Double) {
    tokens[token] = Token(family: family, grant: grant)
    let revoked = families[family]?.revoked ?? false
    families[family] = Family(expiresAt: now + lifetime, revoked: revoked, latest: token)
    issuesSincePurge += 1
    if issuesSincePurge >= limits.purgeInterval || families.count > limits.maxEntriesPerStore {
      purge(now: now)
    }
  }

  /// How many families and tokens the store holds.
  var counts: (families: Int, tokens: Int) { (families.count, tokens.count) }

  /// Drops families expired for longer than the grace (and, when still too many, those nearest
  /// expiry), then every token of a dropped family.
  private mutating func purge(now: Double) {
    issuesSincePurge = 0
    let cutoff = now - limits.expiredGrace
    families.removeEntries { $0.expiresAt <= cutoff }
    if families.count > limits.maxEntriesPerStore {
      families.keepLargest(limits.trimmedSize) { $0.expiresAt }
    }
    tokens.removeEntries { families[$0.family] == nil }
  }

  /// Exchanges `token` for `clientID`. `newToken` is the successor to record when rotating.
  mutating func exchange(
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
  mutating func revoke(_ token: String, clientID: String) {
    guard let record = tokens[token], record.grant.clientID == clientID else { return }
    families[record.family]?.revoked = true
  }

  /// Revokes a whole family (the tokens of a code that was used twice). A family not stored yet is
  /// recorded as revoked, so the token its first exchange is about to store is born dead; such a
  /// placeholder expires after the grace like any family.
  mutating func revoke(family: String, now: Double) {
    if families[family] == nil {
      families[family] = Family(expiresAt: now, revoked: true, latest: "")
    } else {
      families[family]?.revoked = true
    }
  }
}
