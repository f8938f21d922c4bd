/// A login in progress at a simulated social provider: the Universal Login transaction it
/// belongs to, keyed by the `state` the mock sent to the provider; single use.
struct SocialLoginState: Sendable {
  var transactionID: String
  var connection: String
  /// `connection_scope` from `/authorize`, shown on the consent page.
  var scope: [String]
}

/// A code the simulated provider issued after consent, bound to its `state`; single use.
struct SocialLoginCode: Sendable {
  var state: String
  var account: SocialAccount
}

/// The simulated social providers' pending logins and codes.
struct SocialLoginStore: Sendable {
  var states: ExpiringStore<SocialLoginState>
  var codes: ExpiringStore<SocialLoginCode>

  init(limits: MockStateLimits, now: @escaping @Sendable () -> Double) {
    states = ExpiringStore(limits: limits, now: now)
    codes = ExpiringStore(limits: limits, now: now)
  }
}
