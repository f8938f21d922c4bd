/// The transactions of the simulated social providers (docs/protocol.md §2.1): the `state` of a login at
/// the provider and the code it returns, each single use.
extension MockState {
  /// Remembers a login sent to the provider under its `state`.
  mutating func startSocialLogin(_ login: SocialLoginState, state: String, expiresAt: Double) {
    social.states.insert(login, key: state, expiresAt: expiresAt)
  }

  /// Remembers the code the provider issued after consent.
  mutating func issueSocialCode(_ issued: SocialLoginCode, code: String, expiresAt: Double) {
    social.codes.insert(issued, key: code, expiresAt: expiresAt)
  }

  /// Takes a provider `state`: the callback uses it once.
  mutating func takeSocialState(_ state: String, now: Double) -> SocialLoginState? {
    social.states.take(state, now: now)
  }

  /// Takes a provider code: the callback uses it once.
  mutating func takeSocialCode(_ code: String, now: Double) -> SocialLoginCode? {
    social.codes.take(code, now: now)
  }
}
