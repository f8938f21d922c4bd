import AuthFlowJOSE

/// Limits on MFA one-time codes (Auth0 "MFA OTP code limits"): a code that verified cannot be used
/// again, and failed verifications per user draw from a bucket of 10 attempts that refills one
/// attempt every 6 minutes. An empty bucket refuses every guess, right or wrong, until it refills.
struct MFAThrottle {
  let tenant: MockTenant

  static let bucketSize = 10.0
  static let refillInterval = 360.0
  /// How long a used code is remembered: past the TOTP window it cannot verify anyway.
  static let replayWindow = 300.0

  /// The attempts left for one user at `updated`.
  struct Bucket: Sendable {
    var available: Double
    var updated: Double
  }

  /// Takes one attempt from the user's bucket before a code is checked; false when none is left
  /// (every guess, right or wrong, is then refused). Taken first, given back for a right code
  /// (``refund(_:)``): concurrent guesses can never outnumber the bucket.
  func reserve(_ userID: String) -> Bool {
    let now = tenant.clock.seconds
    return tenant.transact { $0.reserveMFAAttempt(userID: userID, now: now) }
  }

  /// Gives back the attempt ``reserve(_:)`` took, for a code that verified.
  func refund(_ userID: String) {
    let now = tenant.clock.seconds
    tenant.transact { $0.refundMFAAttempt(userID: userID, now: now) }
  }

  /// Records a verified code; false when the user already used it (a replay). Checked and
  /// recorded in one step.
  func consume(_ code: String, userID: String) -> Bool {
    let now = tenant.clock.seconds
    return tenant.transact { $0.consumeMFACode(code, userID: userID, now: now) }
  }
}
