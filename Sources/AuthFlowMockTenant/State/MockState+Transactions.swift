import AuthFlowCore
import AuthFlowJOSE

/// The operations of the protocol that touch more than one store or decide on what they read:
/// each is one `mutating` step of ``MockState``, run under the owner's lock
/// (``MockStateOwner/withState(_:)``), so two concurrent requests can never both win.
extension MockState {
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

  /// Redeems an authorization code (PROTOCOL §3.1): takes it, and in the same step marks it
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

  /// Rotates a refresh token (PROTOCOL §3.3) in one step: the token is exchanged for `newToken`
  /// when rotating, and a reuse outside the leeway revokes its whole family.
  mutating func rotateRefreshToken(
    _ token: String, clientID: String, now: Double, rotate: Bool, reuseLeeway: Double, newToken: String
  ) -> RefreshTokenStore.Outcome {
    refreshTokens.exchange(
      token, clientID: clientID, now: now, rotate: rotate, reuseLeeway: reuseLeeway, newToken: newToken)
  }

  /// Stores a new passwordless code for `key` (`connection|address`): the previous code and its
  /// wrong guesses are forgotten in the same step.
  mutating func storePasswordlessCode(_ code: String, key: String, expiresAt: Double) {
    passwordlessCodes.insert(code, key: key, expiresAt: expiresAt)
    passwordlessAttempts.remove(key)
  }

  /// Checks a guess of the passwordless code of `key` and counts it, in one step: at most
  /// `maxAttempts` wrong guesses however many arrive at once; a right guess uses the code up.
  mutating func consumePasswordlessCode(
    _ otp: String, key: String, now: Double, maxAttempts: Int, lifetime: Double
  ) -> PasswordlessCodes.Check {
    let attempts = passwordlessAttempts.get(key, now: now) ?? 0
    if attempts >= maxAttempts { return .exhausted }
    guard let expected = passwordlessCodes.get(key, now: now) else { return .wrong }
    guard RandomToken.constantTimeEquals(expected, otp) else {
      // Each wrong guess counts; the last one allowed uses the code up.
      passwordlessAttempts.insert(attempts + 1, key: key, expiresAt: now + lifetime)
      if attempts + 1 >= maxAttempts {
        passwordlessCodes.remove(key)
        return .exhausted
      }
      return .wrong
    }
    passwordlessCodes.remove(key)
    passwordlessAttempts.remove(key)
    return .accepted
  }

  /// What an `otp` sent with an `/otp/challenge` session found.
  enum OTPChallengeAnswer: Sendable {
    /// Unknown, expired, used up, or another client's session.
    case unknownSession
    /// Wrong; the session lives on. `isPhone` picks the error's wording.
    case wrong(isPhone: Bool)
    /// The last wrong guess allowed: the session is gone.
    case tooManyAttempts
    /// Right: the session is used up.
    case accepted(OTPChallenge)
  }

  /// Answers an `/otp/challenge` session (PROTOCOL §4.4) in one step: the code is compared, the
  /// failure counted or the session used up, so concurrent guesses never exceed `maxAttempts`.
  mutating func answerOTPChallenge(
    _ session: String, otp: String, clientID: String, now: Double, maxAttempts: Int, lifetime: Double
  ) -> OTPChallengeAnswer {
    guard var challenge = otpChallenges.get(session, now: now), challenge.clientID == clientID else {
      return .unknownSession
    }
    guard let expected = challenge.code, RandomToken.constantTimeEquals(expected, otp) else {
      challenge.failures += 1
      if challenge.failures >= maxAttempts {
        otpChallenges.remove(session)
        return .tooManyAttempts
      }
      otpChallenges.insert(challenge, key: session, expiresAt: now + lifetime)
      return .wrong(isPhone: challenge.isPhone)
    }
    // Single use: a right code ends the session, whatever happens next.
    otpChallenges.remove(session)
    return .accepted(challenge)
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

  /// What a wrong code on the Universal Login MFA page (`/u/mfa-otp-challenge`) found.
  enum MFAPageFailure: Sendable {
    /// The transaction is gone: blocked by a concurrent wrong code, finished, or expired.
    case unknownTransaction
    /// Counted; the transaction as it is now.
    case wrong(LoginTransaction)
    /// The last wrong code allowed: the transaction is gone.
    case tooManyAttempts
  }

  /// Counts a wrong code against the MFA page's transaction `id` in one step: the stored
  /// transaction is read, its failures counted and it is written back or removed, so concurrent
  /// wrong codes never exceed `maxFailures` and a blocked transaction never comes back.
  mutating func countMFAPageFailure(
    transaction id: String, now: Double, maxFailures: Int, lifetime: Double
  ) -> MFAPageFailure {
    guard var transaction = transactions.get(id, now: now), transaction.pendingMFAUserID != nil else {
      return .unknownTransaction
    }
    transaction.mfaFailures += 1
    guard transaction.mfaFailures < maxFailures else {
      transactions.remove(id)
      return .tooManyAttempts
    }
    transactions.insert(transaction, key: id, expiresAt: now + lifetime)
    return .wrong(transaction)
  }

  /// Takes the MFA page's transaction `id` for the login a right code finishes: nil when it is gone
  /// (blocked by a concurrent wrong code, or finished by a concurrent right one), so a transaction
  /// finishes once.
  mutating func takeMFAPageTransaction(_ id: String, now: Double) -> LoginTransaction? {
    guard let transaction = transactions.get(id, now: now), transaction.pendingMFAUserID != nil else { return nil }
    transactions.remove(id)
    return transaction
  }

  /// Uses up a verified MFA code of the user; false when it was used already (a replay), checked
  /// and recorded in one step.
  mutating func consumeMFACode(_ code: String, userID: String, now: Double) -> Bool {
    let key = userID + "|" + code
    if usedMFACodes.get(key, now: now) != nil { return false }
    usedMFACodes.insert(true, key: key, expiresAt: now + MFAThrottle.replayWindow)
    return true
  }

  /// Uses up a pushed authorization request (`request_uri`) for `clientID`: nil when unknown,
  /// used, expired, or pushed by another client — which does not burn it.
  mutating func consumePushedRequest(_ uri: String, clientID: String, now: Double) -> [String: Value]? {
    guard let pushed = pushedRequests.get(uri, now: now), pushed["client_id"]?.stringValue == clientID else {
      return nil
    }
    return pushedRequests.take(uri, now: now)
  }

  /// Redeems a session transfer token (PROTOCOL §3.2): single use.
  mutating func redeemSessionTransfer(_ token: String, now: Double) -> SessionTransfer? {
    sessionTransfers.take(token, now: now)
  }

  /// Records a subject token (an Apple authorization code) as exchanged; false when it was seen
  /// before, live or expired. Checked and recorded in one step.
  mutating func redeemSubjectToken(_ token: String, now: Double, rememberUntil: Double) -> Bool {
    guard case .missing = usedSubjectTokens.lookup(token, now: now) else { return false }
    usedSubjectTokens.insert(true, key: token, expiresAt: rememberUntil)
    return true
  }

  /// What a user code typed on `/activate` found.
  enum UserCodeEntry: Sendable {
    /// The activation transaction is unknown or expired.
    case unknownActivation
    /// No live, undecided code: the failure is counted (the activation as it is now).
    case wrong(DeviceActivation)
    /// The last wrong code allowed: the activation transaction is gone.
    case tooManyAttempts
    /// The code's authorization, remembered on the activation for the confirmation.
    case accepted(DeviceActivation, DeviceAuthorization)
  }

  /// Enters a user code on an `/activate` transaction (RFC 8628 §5.1, brute force) in one step:
  /// the code is looked up and a failure counted, so concurrent guesses never pass `maxFailures`.
  mutating func enterUserCode(
    _ typed: String, activation id: String, now: Double, maxFailures: Int, lifetime: Double
  ) -> UserCodeEntry {
    guard var activation = deviceActivations.get(id, now: now) else { return .unknownActivation }
    guard let authorization = deviceCodes.pending(userCode: typed, now: now) else {
      activation.failures += 1
      guard activation.failures < maxFailures else {
        deviceActivations.remove(id)
        return .tooManyAttempts
      }
      deviceActivations.insert(activation, key: id, expiresAt: now + lifetime)
      return .wrong(activation)
    }
    activation.userCode = authorization.userCode
    deviceActivations.insert(activation, key: id, expiresAt: now + lifetime)
    return .accepted(activation, authorization)
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
}
