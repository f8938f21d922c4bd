import AuthFlowJOSE
import Synchronization

/// The tenant's signing keys: the current one signs every token; keys it replaced stay published
/// in the JWKS (so tokens they signed still verify) until revoked. `/__mock/rotate-keys` rotates.
///
/// The verification keys are rebuilt once per rotation, never per request.
final class SigningKeyRing: Sendable {
  private struct State {
    var current: SigningKey
    var previous: [SigningKey]
    var verification: VerificationKeys
  }

  private let initial: SigningKey
  private let state: Mutex<State>

  init(initial: SigningKey) {
    self.initial = initial
    self.state = Mutex(State(current: initial, previous: [], verification: Self.verification(initial, [])))
  }

  var current: SigningKey { state.withLock { $0.current } }
  /// Every published key (current first), parsed once.
  var verification: VerificationKeys { state.withLock { $0.verification } }
  /// The `kid`s published in the JWKS, current first.
  var publishedKeyIDs: [String] { state.withLock { [$0.current.kid] + $0.previous.map(\.kid) } }

  /// Makes `next` the signing key. The replaced key stays published unless `revokePrevious`, which
  /// also unpublishes every earlier key: tokens they signed no longer verify.
  func rotate(to next: SigningKey, revokePrevious: Bool) {
    state.withLock { state in
      state.previous = revokePrevious ? [] : [state.current] + state.previous
      state.current = next
      state.verification = Self.verification(next, state.previous)
    }
  }

  /// Back to the key the tenant started with.
  func reset() {
    state.withLock { $0 = State(current: initial, previous: [], verification: Self.verification(initial, [])) }
  }

  private static func verification(_ current: SigningKey, _ previous: [SigningKey]) -> VerificationKeys {
    VerificationKeys(JWKSet(keys: ([current] + previous).compactMap(\.publicJWK)))
  }
}
