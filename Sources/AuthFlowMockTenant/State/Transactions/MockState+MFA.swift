import AuthFlowJOSE

/// The transactions of multi-factor authentication (docs/protocol.md §3.6): MFA tokens (single use), OTP
/// associations, out-of-band challenges, the per-user attempt bucket, used codes, recovery codes.
extension MockState {
  /// Remembers the MFA token of an `mfa_required` answer.
  mutating func issueMFAToken(_ token: String, for grant: Grant, expiresAt: Double) {
    mfaTokens.insert(grant, key: token, expiresAt: expiresAt)
  }

  /// What finishing a login with an MFA token found.
  enum MFATokenRedemption: Sendable {
    /// The token was live: it is used up; its grant.
    case redeemed(Grant)
    case expired
    /// Unknown, or used up by a concurrent grant.
    case unknown
  }

  /// Uses up the MFA token of a second factor that verified (docs/protocol.md §3.6), in one step: the token
  /// is taken — so a token logs in once, however many grants present it at once — the factor the
  /// login confirms (`enrolling`, an association) is added to the stored user, and the token's
  /// pending OTP association is dropped.
  mutating func redeemMFAToken(_ token: String, now: Double, enrolling: MFAEnrollment?) -> MFATokenRedemption {
    switch mfaTokens.lookup(token, now: now) {
    case .missing: return .unknown
    case .expired: return .expired
    case .live: break
    }
    guard let grant = mfaTokens.take(token, now: now) else { return .unknown }
    mfa.removePendingOTP(token)
    if let enrolling, let userID = grant.userID, var user = users.user(id: userID), !user.mfa.contains(enrolling) {
      user.mfa.append(enrolling)
      users.insert(user)
    }
    return .redeemed(grant)
  }

  /// Starts an OTP association (`/mfa/associate`) for `mfaToken`: the enrolment its first right
  /// code confirms, kept as long as the token lives.
  mutating func startOTPAssociation(_ enrolment: MFAEnrollment, mfaToken: String, expiresAt: Double) {
    mfa.setPendingOTP(enrolment, mfaToken: mfaToken, expiresAt: expiresAt)
  }

  /// Starts an out-of-band challenge and sends its binding code (SMS, email; nil for a push), in
  /// one step: a code is never readable in the outbox before its challenge exists.
  mutating func startOOBChallenge(_ challenge: MFAStore.OOBChallenge, code: String, message: OutboxDraft?, now: Double)
  {
    mfa.addOOB(challenge, code: code)
    if let message { outbox.send(message, at: now) }
  }

  /// Answers an `mfa-oob` grant request (``MFAStore/answerOOB(_:mfaToken:bindingCode:now:pollInterval:)``).
  mutating func answerOOBChallenge(
    _ code: String, mfaToken: String, bindingCode: String?, now: Double, pollInterval: Double
  ) -> MFAStore.OOBAnswer {
    mfa.answerOOB(code, mfaToken: mfaToken, bindingCode: bindingCode, now: now, pollInterval: pollInterval)
  }

  /// Approves or rejects a live push (`/__mock/mfa/…`); false when there is none.
  mutating func decidePush(_ code: String, approve: Bool, now: Double) -> Bool {
    mfa.decide(code, approve: approve, now: now)
  }

  /// Takes one attempt from the user's MFA bucket before a code is checked (the check itself —
  /// TOTP's HMAC — runs outside the lock); false when the bucket is empty. A right code gives the
  /// attempt back (``refundMFAAttempt(userID:now:)``), so only wrong codes draw from the bucket and
  /// concurrent guesses can never outnumber it.
  mutating func reserveMFAAttempt(userID: String, now: Double) -> Bool {
    var bucket = mfaBucket(userID, now: now)
    guard bucket.available >= 1 else { return false }
    bucket.available -= 1
    mfaAttempts.insert(bucket, key: userID, expiresAt: now + MFAThrottle.bucketSize * MFAThrottle.refillInterval)
    return true
  }

  /// Gives back an attempt taken by ``reserveMFAAttempt(userID:now:)`` for a code that verified.
  mutating func refundMFAAttempt(userID: String, now: Double) {
    var bucket = mfaBucket(userID, now: now)
    bucket.available = min(MFAThrottle.bucketSize, bucket.available + 1)
    mfaAttempts.insert(bucket, key: userID, expiresAt: now + MFAThrottle.bucketSize * MFAThrottle.refillInterval)
  }

  /// The attempts left for one user at `now` (refilled since the last change).
  mutating func mfaBucket(_ userID: String, now: Double) -> MFAThrottle.Bucket {
    guard let stored = mfaAttempts.get(userID, now: now) else {
      return MFAThrottle.Bucket(available: MFAThrottle.bucketSize, updated: now)
    }
    let refilled = stored.available + (now - stored.updated) / MFAThrottle.refillInterval
    return MFAThrottle.Bucket(available: min(MFAThrottle.bucketSize, refilled), updated: now)
  }

  /// Uses up a verified MFA code of the user; false when it was used already (a replay), checked
  /// and recorded in one step.
  mutating func consumeMFACode(_ code: String, userID: String, now: Double) -> Bool {
    let key = userID + "|" + code
    if usedMFACodes.get(key, now: now) != nil { return false }
    usedMFACodes.insert(true, key: key, expiresAt: now + MFAThrottle.replayWindow)
    return true
  }

  /// Uses up the user's recovery code `code`, replacing it with `next` (the `mfa-recovery-code`
  /// grant); false when the user has no such code. Checked and replaced in one step.
  mutating func replaceRecoveryCode(_ code: String, userID: String, with next: String) -> Bool {
    guard var user = users.user(id: userID),
      let index = user.mfa.firstIndex(where: { factor in
        factor.kind == .recoveryCode && RandomToken.constantTimeEquals(factor.secret, code)
      })
    else { return false }
    user.mfa[index] = MFAEnrollment(kind: .recoveryCode, secret: next)
    users.update(user)
    return true
  }

  /// Gives the user a recovery code when they have none (their first association); false when they
  /// have one already. Checked and added in one step.
  mutating func addFirstRecoveryCode(_ code: String, userID: String) -> Bool {
    guard var user = users.user(id: userID), !user.mfa.contains(where: { $0.kind == .recoveryCode }) else {
      return false
    }
    user.mfa.append(MFAEnrollment(kind: .recoveryCode, secret: code))
    users.insert(user)
    return true
  }
}
