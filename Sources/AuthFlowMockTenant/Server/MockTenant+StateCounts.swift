extension MockTenant {
  /// How many entries each per-login store holds, by name: what ``MockStateLimits`` bounds.
  /// For tests and `/__mock/state`-style diagnostics; reading it does not purge anything.
  public func stateCounts() async -> [String: Int] {
    let refresh = await refreshTokens.counts
    let protectionCounts = await protection.counts
    return [
      "transactions": await transactions.count,
      "codes": await codes.count,
      "redeemed_codes": await redeemedCodes.count,
      "sessions": await sessions.count,
      "mfa_attempts": await mfaAttempts.count,
      "used_mfa_codes": await usedMFACodes.count,
      "mfa_tokens": await mfaTokens.count,
      "passwordless_codes": await passwordlessCodes.count,
      "passwordless_attempts": await passwordlessAttempts.count,
      "otp_challenges": await otpChallenges.count,
      "used_subject_tokens": await usedSubjectTokens.count,
      "session_transfers": await sessionTransfers.count,
      "device_activations": await deviceActivations.count,
      "pushed_requests": await pushedRequests.count,
      "refresh_token_families": refresh.families,
      "refresh_tokens": refresh.tokens,
      "rate_limit_windows": protectionCounts.windows,
      "tickets": protectionCounts.tickets,
      "outbox_messages": await outbox.count,
      "minted_signatures": mintedSignatures.withLock { $0.count },
    ]
  }
}
