/// The transactions of passkeys (docs/protocol.md §3.5, §4.5, §6): ceremonies (single use), a passkey
/// signup that creates its user and passkey together, the signature counter, My Account's passkey
/// changes.
extension MockState {
  /// Starts a passkey ceremony (signup, login or My Account enrollment) under its `auth_session`.
  mutating func startPasskeyCeremony(_ session: PasskeySession, authSession: String, expiresAt: Double) {
    passkeys.sessions.insert(session, key: authSession, expiresAt: expiresAt)
  }

  /// Takes a ceremony: a challenge answers one ceremony, successful or not.
  mutating func takePasskeyCeremony(_ authSession: String, now: Double) -> PasskeySession? {
    passkeys.sessions.take(authSession, now: now)
  }

  /// What a passkey signup found.
  enum PasskeySignUp: Sendable {
    case created
    /// The credential is registered already.
    case credentialExists
    /// A user of the connection has the email already.
    case userExists
  }

  /// Creates the user of a passkey signup and its passkey in one step, unless the credential or the
  /// user's email is taken: two signups at once make one user.
  mutating func signUpWithPasskey(_ user: UserRecord, passkey: PasskeyCredential) -> PasskeySignUp {
    guard passkeys.credential(id: passkey.id) == nil else { return .credentialExists }
    if let email = user.email, users.find(email, connection: user.connection) != nil { return .userExists }
    users.insert(user)
    passkeys.insert(passkey)
    return .created
  }

  /// Stores a verified signature counter; false when another assertion moved it first (a replay
  /// racing the first use).
  mutating func advancePasskeyCounter(_ id: String, from stored: UInt32, to newCount: UInt32) -> Bool {
    passkeys.advance(id: id, from: stored, to: newCount)
  }

  /// Stores a passkey enrolled through My Account; false when the credential is registered already.
  mutating func addPasskey(_ passkey: PasskeyCredential) -> Bool {
    guard passkeys.credential(id: passkey.id) == nil else { return false }
    passkeys.insert(passkey)
    return true
  }

  /// Renames the user's passkey (nil clears the name); false when it is not theirs.
  mutating func renamePasskey(_ id: String, userID: String, to name: String?) -> Bool {
    guard passkeys.credential(id: id)?.userID == userID else { return false }
    passkeys.rename(id: id, to: name)
    return true
  }

  /// What deleting a passkey found.
  enum PasskeyRemoval: Sendable {
    case removed
    /// Not the user's passkey.
    case notFound
    /// The user's last way to log in (no password, no other passkey): kept.
    case lastMethod
  }

  /// Deletes the user's passkey unless it is their last way to log in — checked and deleted in one
  /// step, so two deletes at once never leave the user without one.
  mutating func removePasskey(_ id: String, userID: String) -> PasskeyRemoval {
    guard passkeys.credential(id: id)?.userID == userID else { return .notFound }
    let hasPassword = users.user(id: userID)?.password != nil
    guard hasPassword || passkeys.credentials(userID: userID).count > 1 else { return .lastMethod }
    passkeys.remove(id: id)
    return .removed
  }
}
