import AuthFlowJOSE

/// The transactions of one-time codes (docs/protocol.md §3.7, §4.3, §4.4): passwordless codes and
/// `/otp/challenge` sessions, each code sent, checked, counted and used up in single steps.
extension MockState {
  /// Sends a new passwordless code for `key` (`connection|address`) and stores it, in one step: a
  /// guess never sees the message without the code; the previous code and its wrong guesses are
  /// forgotten.
  mutating func sendPasswordlessCode(
    _ code: String, key: String, message: OutboxDraft, now: Double, expiresAt: Double
  ) {
    outbox.send(message, at: now)
    passwordlessCodes.insert(code, key: key, expiresAt: expiresAt)
    passwordlessAttempts.remove(key)
  }

  /// Starts an `/otp/challenge` session and sends its code (nil when nothing is sent: an unknown
  /// user without `allow_signup`), in one step.
  mutating func startOTPChallenge(
    _ challenge: OTPChallenge, session: String, message: OutboxDraft?, now: Double, expiresAt: Double
  ) {
    if let message { outbox.send(message, at: now) }
    otpChallenges.insert(challenge, key: session, expiresAt: expiresAt)
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

  /// Answers an `/otp/challenge` session (docs/protocol.md §4.4) in one step: the code is compared, the
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
}
