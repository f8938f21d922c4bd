/// The transactions of organizations (docs/protocol.md §8): invitations created (their email sent), deleted,
/// and accepted once.
extension MockState {
  /// Creates an organization invitation, and sends its email when there is one.
  mutating func createInvitation(_ invitation: Invitation, email: OutboxDraft?, now: Double) {
    organizations.add(invitation)
    if let email { outbox.send(email, at: now) }
  }

  /// Deletes an invitation of the organization; false when there is none.
  mutating func deleteInvitation(_ id: String, of organizationID: String) -> Bool {
    organizations.delete(id, of: organizationID)
  }

  /// Accepts an invitation for `userID` in one step (docs/protocol.md §8): it is used up, the user becomes a
  /// member and their email is marked verified. Nil when it is gone or expired.
  mutating func acceptInvitation(_ invitation: Invitation, userID: String, now: Double) -> Invitation? {
    guard
      let accepted = organizations.redeem(
        ticket: invitation.ticketID, organizationID: invitation.organizationID, clientID: invitation.clientID,
        userID: userID, now: now)
    else { return nil }
    if var user = users.user(id: userID), !user.emailVerified {
      user.emailVerified = true
      user.updatedAt = now
      users.insert(user)
    }
    return accepted
  }
}
