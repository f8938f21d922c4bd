import AuthFlowCore

/// The transactions of the My Account API's enrollments (docs/protocol.md §6): an enrollment is started
/// (its code sent), taken by the one verify call it allows, and confirmed together with the MFA
/// factor it gives the user; a method's changes are applied to the stored method.
extension MockState {
  /// Starts an enrollment under its `auth_session` and sends its code (email, phone) in one step.
  mutating func startEnrollment(
    _ pending: PendingEnrollment, authSession: String, message: OutboxDraft?, now: Double, expiresAt: Double
  ) {
    if let message { outbox.send(message, at: now) }
    myAccount.pending.insert(pending, key: authSession, expiresAt: expiresAt)
  }

  /// Takes an enrollment: one verify call per `auth_session`, successful or not.
  mutating func takeEnrollment(_ authSession: String, now: Double) -> PendingEnrollment? {
    myAccount.pending.take(authSession, now: now)
  }

  /// Stores a verified method and, in the same step, the MFA factor it gives the user (so `/mfa/*`,
  /// the MFA grants and the Universal Login MFA page use it).
  mutating func confirmEnrollment(_ method: EnrolledMethod) {
    myAccount.insert(method)
    guard let factor = method.factor, var user = users.user(id: method.userID), !user.mfa.contains(factor) else {
      return
    }
    user.mfa.append(factor)
    users.insert(user)
  }

  /// Applies a `PATCH` to the user's enrolled method: `name` (when given; null clears it) and the
  /// phone's `preferred_authentication_method` (when given). The method as it is now, or nil when it
  /// is not the user's.
  mutating func updateEnrolledMethod(
    _ id: String, userID: String, name: Value?, preferredChannel: String?
  ) -> EnrolledMethod? {
    guard var method = myAccount.method(id: id, userID: userID) else { return nil }
    if let name { method.name = name.stringValue }
    if let preferredChannel { method.details["preferred_authentication_method"] = .string(preferredChannel) }
    myAccount.insert(method)
    return method
  }

  /// Deletes the user's enrolled method and, in the same step, the MFA factor it gave them; nil
  /// when it is not the user's.
  mutating func removeEnrolledMethod(_ id: String, userID: String) -> EnrolledMethod? {
    guard let removed = myAccount.remove(id: id, userID: userID) else { return nil }
    if let factor = removed.factor, var user = users.user(id: userID) {
      user.mfa.removeAll { $0 == factor }
      users.insert(user)
    }
    return removed
  }
}
