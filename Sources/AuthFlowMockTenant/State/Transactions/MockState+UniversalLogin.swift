/// The transactions of Universal Login (docs/protocol.md §2): login transactions, from `/authorize` to the
/// login that finishes them once, and SSO sessions.
extension MockState {
  /// Starts (or replaces) a login transaction, live until `expiresAt`.
  mutating func startLogin(_ transaction: LoginTransaction, expiresAt: Double) {
    transactions.insert(transaction, key: transaction.id, expiresAt: expiresAt)
  }

  /// Takes the live transaction `id` for the login that finishes it: nil when it is gone — finished
  /// by a concurrent post, abandoned, or expired — so a transaction finishes once.
  mutating func takeLogin(_ id: String, now: Double) -> LoginTransaction? {
    transactions.take(id, now: now)
  }

  /// Drops the transaction `id` (the login failed for good: the provider denied, the codes ran out).
  mutating func abandonLogin(_ id: String) {
    transactions.remove(id)
  }

  /// Sets the organization the user typed on the prompt (`/u/organization`) on the live transaction
  /// `id`: the transaction as it is now, or nil when it is gone (never brought back).
  mutating func chooseOrganization(
    _ organization: OrganizationConfig, login id: String, now: Double, lifetime: Double
  ) -> LoginTransaction? {
    guard var transaction = transactions.get(id, now: now) else { return nil }
    transaction.request.organization = organization
    transactions.insert(transaction, key: id, expiresAt: now + lifetime)
    return transaction
  }

  /// Records the address a passwordless code was sent to on the live transaction `id`; false when
  /// it is gone.
  mutating func setPasswordlessAddress(_ address: String, login id: String, now: Double, lifetime: Double) -> Bool {
    guard var transaction = transactions.get(id, now: now) else { return false }
    transaction.passwordlessAddress = address
    transactions.insert(transaction, key: id, expiresAt: now + lifetime)
    return true
  }

  /// Moves the live transaction `id` to the MFA page for `userID`, with no wrong codes yet: the
  /// transaction as it is now, or nil when it is gone.
  mutating func beginMFAPage(login id: String, userID: String, now: Double, lifetime: Double) -> LoginTransaction? {
    guard var transaction = transactions.get(id, now: now) else { return nil }
    transaction.pendingMFAUserID = userID
    transaction.mfaFailures = 0
    transactions.insert(transaction, key: id, expiresAt: now + lifetime)
    return transaction
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

  /// Opens an SSO session (the `auth0` cookie's value is `id`), or remembers an app login waiting
  /// for its `continue` (keyed by token and browser binding).
  mutating func openSession(_ session: SSOSession, id: String, expiresAt: Double) {
    sessions.insert(session, key: id, expiresAt: expiresAt)
  }

  /// Ends the SSO session `id` (logout, a session transfer for another user).
  mutating func endSession(_ id: String) {
    sessions.remove(id)
  }

  /// Takes the session `id`: an app login's `continue` is single use.
  mutating func takeSession(_ id: String, now: Double) -> SSOSession? {
    sessions.take(id, now: now)
  }
}
