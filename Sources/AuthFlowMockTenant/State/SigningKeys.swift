import AuthFlowJOSE

/// The tenant's signing keys: the current one signs every token; keys it replaced stay published
/// in the JWKS (so tokens they signed still verify) until revoked. `/__mock/rotate-keys` rotates.
///
/// A value inside ``MockState``: a reset builds it again from the key the tenant started with,
/// like every other store. The verification keys are rebuilt once per rotation, never per
/// request.
struct SigningKeys: Sendable {
  private(set) var current: SigningKey
  private var previous: [SigningKey] = []
  /// Every published key (current first), parsed once.
  private(set) var verification: VerificationKeys

  init(initial: SigningKey) {
    current = initial
    verification = Self.verification(initial, [])
  }

  /// The `kid`s published in the JWKS, current first.
  var publishedKeyIDs: [String] { [current.kid] + previous.map(\.kid) }

  /// Makes `next` the signing key. The replaced key stays published unless `revokePrevious`, which
  /// also unpublishes every earlier key: tokens they signed no longer verify.
  mutating func rotate(to next: SigningKey, revokePrevious: Bool) {
    previous = revokePrevious ? [] : [current] + previous
    current = next
    verification = Self.verification(next, previous)
  }

  private static func verification(_ current: SigningKey, _ previous: [SigningKey]) -> VerificationKeys {
    VerificationKeys(JWKSet(keys: ([current] + previous).compactMap(\.publicJWK)))
  }
}
