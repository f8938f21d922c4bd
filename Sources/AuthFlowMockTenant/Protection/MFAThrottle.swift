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

  private func bucket(_ userID: String, now: Double) async -> Bucket {
    guard let stored = await tenant.mfaAttempts.get(userID, now: now) else {
      return Bucket(available: Self.bucketSize, updated: now)
    }
    let refilled = stored.available + (now - stored.updated) / Self.refillInterval
    return Bucket(available: min(Self.bucketSize, refilled), updated: now)
  }

  /// True when the user has no attempt left.
  func isExhausted(_ userID: String) async -> Bool {
    await bucket(userID, now: tenant.clock.seconds).available < 1
  }

  /// Takes one attempt for a wrong code.
  func recordFailure(_ userID: String) async {
    let now = tenant.clock.seconds
    var current = await bucket(userID, now: now)
    current.available = max(0, current.available - 1)
    await tenant.mfaAttempts.insert(current, key: userID, expiresAt: now + Self.bucketSize * Self.refillInterval)
  }

  /// Records a verified code; false when the user already used it (a replay).
  func consume(_ code: String, userID: String) async -> Bool {
    let now = tenant.clock.seconds
    let key = userID + "|" + code
    if await tenant.usedMFACodes.get(key, now: now) != nil { return false }
    await tenant.usedMFACodes.insert(true, key: key, expiresAt: now + Self.replayWindow)
    return true
  }
}
