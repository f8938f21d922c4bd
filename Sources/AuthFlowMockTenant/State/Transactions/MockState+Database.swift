import AuthFlowJOSE

/// The transactions of database passwords (docs/protocol.md §3.1, §4.2, §9): a password login with
/// brute-force protection, the unblock and reset tickets of the mock's emails, password changes.
extension MockState {
  /// What a password login found.
  enum PasswordCheck: Sendable {
    /// The identifier and IP are blocked: nothing was compared.
    case blocked
    /// No such user, no password, or a wrong one: the failure is counted. `reachedLimit` on the
    /// failure that blocks the pair (the one whose user gets the unblock email).
    case wrong(UserRecord?, reachedLimit: Bool)
    /// Right: the pair's failures are cleared.
    case accepted(UserRecord)
  }

  /// Checks a password login in one step (docs/protocol.md §9): the block is checked, the user found, the
  /// password compared and the failure counted (or the failures cleared) together, so concurrent
  /// guesses never get more than `limit` tries past the block.
  mutating func checkPassword(
    _ password: String, identifier: String, connection: String, failureKey: String, limit: Int
  ) -> PasswordCheck {
    guard users.failureCount(key: failureKey) < limit else { return .blocked }
    let found = users.find(identifier, connection: connection)
    guard let user = found, let expected = user.password, RandomToken.constantTimeEquals(expected, password) else {
      return .wrong(found, reachedLimit: users.recordFailure(key: failureKey) == limit)
    }
    users.clearFailures(key: failureKey)
    return .accepted(user)
  }

  /// Issues the ticket of an unblock link and sends the email that carries it.
  mutating func sendUnblockLink(
    ticket: String, failureKey: String, email: OutboxDraft, now: Double, expiresAt: Double
  ) {
    protection.issue(.unblock(failureKey: failureKey), id: ticket, expiresAt: expiresAt, now: now)
    outbox.send(email, at: now)
  }

  /// Uses up an unblock ticket and clears the block it names; false when the ticket is unknown,
  /// used, expired, or a reset ticket (which stays).
  mutating func redeemUnblockTicket(_ ticket: String, now: Double) -> Bool {
    guard case .unblock(let key)? = protection.ticket(ticket, now: now) else { return false }
    _ = protection.redeem(ticket, now: now)
    users.clearFailures(key: key)
    return true
  }

  /// Issues the ticket of a password-reset link for `userID` and sends the email that carries it.
  mutating func sendPasswordResetLink(
    ticket: String, userID: String, email: OutboxDraft, now: Double, expiresAt: Double
  ) {
    protection.issue(.resetPassword(userID: userID), id: ticket, expiresAt: expiresAt, now: now)
    outbox.send(email, at: now)
  }

  /// Uses up a password-reset ticket and sets the new password in one step (which clears the
  /// user's brute-force blocks); false when the ticket is unknown, used, expired, or an unblock
  /// ticket (which stays).
  mutating func resetPassword(ticket: String, to password: String, now: Double) -> Bool {
    guard case .resetPassword(let userID)? = protection.ticket(ticket, now: now) else { return false }
    _ = protection.redeem(ticket, now: now)
    return users.setPassword(password, userID: userID, now: now)
  }

  /// Sets a user's password (My Account); false for an unknown user.
  mutating func changePassword(userID: String, to password: String, now: Double) -> Bool {
    users.setPassword(password, userID: userID, now: now)
  }
}
