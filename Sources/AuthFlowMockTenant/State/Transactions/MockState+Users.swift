import AuthFlowCore

/// The transactions of users (docs/protocol.md §4.1, §7), shared by the families that create or change
/// one (Database, Passwordless, Social, Management): signups that must not create a user twice,
/// users created on first login, profile changes applied to the stored record (never a stale copy
/// written back), identity links. Invitations are in `MockState+Organizations.swift`.
extension MockState {
  /// What a signup found.
  enum SignUp: Sendable {
    case created
    /// A user of the connection already has the email.
    case emailTaken
    /// A user of the connection already has the username.
    case usernameTaken
  }

  /// Creates `user` unless a user of its connection has its email or username: checked and
  /// inserted in one step, so two signups at once make one user.
  mutating func signUp(_ user: UserRecord) -> SignUp {
    if let email = user.email, users.find(email, connection: user.connection) != nil { return .emailTaken }
    if let username = user.username, users.find(username, connection: user.connection) != nil {
      return .usernameTaken
    }
    users.insert(user)
    return .created
  }

  /// The user of `connection` whose email, username or phone number is `identifier`, or `created`
  /// stored as a new user: found or created in one step, so two first logins at once make one user.
  mutating func findOrCreateUser(_ identifier: String, connection: String, created: UserRecord) -> UserRecord {
    if let existing = users.find(identifier, connection: connection) { return existing }
    users.insert(created)
    return created
  }

  /// The address or phone a one-time code was sent to and came back from.
  enum VerifiedChannel: Sendable {
    case email, phone
  }

  /// A passwordless login, in one step: the user of `identifier` (created as `created` on first
  /// login), with the channel the code came through marked verified, as Auth0 marks a user who
  /// signed in with a code sent to their email (`email_verified`) or phone (`phone_verified`).
  mutating func findOrCreateUser(
    _ identifier: String, connection: String, created: UserRecord, verifying channel: VerifiedChannel, now: Double
  ) -> UserRecord {
    verify(channel, of: identifier, connection: connection, now: now)
      ?? findOrCreateUser(identifier, connection: connection, created: created)
  }

  /// The user of `identifier` with `channel` marked verified (stored); nil when there is none.
  mutating func verify(
    _ channel: VerifiedChannel, of identifier: String, connection: String, now: Double
  ) -> UserRecord? {
    guard var user = users.find(identifier, connection: connection) else { return nil }
    switch channel {
    case .email where user.email != nil && !user.emailVerified: user.emailVerified = true
    case .phone where user.phoneNumber != nil && !user.phoneVerified: user.phoneVerified = true
    default: return user
    }
    user.updatedAt = now
    users.insert(user)
    return user
  }

  /// The user a provider identity logs in as, in one step: the primary user of a linked identity
  /// (when `followLinks`), else the stored user with `fresh.userID` — `fresh` on first login —
  /// with `refresh` applied to it (the provider's profile) and stored.
  mutating func providerLogin(
    _ fresh: UserRecord, followLinks: Bool, refresh: (inout UserRecord) -> Void
  ) -> UserRecord {
    if followLinks, let primary = identityLinks.primary(of: fresh.userID), let user = users.user(id: primary) {
      return user
    }
    var user = users.user(id: fresh.userID) ?? fresh
    refresh(&user)
    users.insert(user)
    return user
  }

  /// Merges `members` into the user's `user_metadata` (top-level keys replace, null removes): the
  /// user as it is now, or nil for an unknown user.
  mutating func mergeUserMetadata(_ members: [String: Value], userID: String, now: Double) -> UserRecord? {
    guard var user = users.user(id: userID) else { return nil }
    for (key, value) in members {
      if value.isNull {
        user.userMetadata.removeValue(forKey: key)
      } else {
        user.userMetadata[key] = value
      }
    }
    user.updatedAt = now
    users.insert(user)
    return user
  }

  /// Links the identity of the user `secondaryID` to `primary`; false when it is linked already
  /// (checked and linked in one step).
  mutating func linkIdentity(_ identity: Value, secondaryID: String, to primary: String) -> Bool {
    guard !identityLinks.isLinked(secondaryID) else { return false }
    identityLinks.link(identity, to: primary)
    return true
  }

  /// Removes the identity `provider|userID` from `primary`; false when it was not linked.
  mutating func unlinkIdentity(provider: String, userID: String, from primary: String) -> Bool {
    identityLinks.unlink(provider: provider, userID: userID, from: primary)
  }
}
