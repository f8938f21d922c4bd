import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// Accepting an organization invitation (docs/protocol.md §8): `/authorize?invitation=…&organization=…`
/// shows the signup page (the login page when the invitee already has an account) with the
/// invited email filled in; the user must use that email. On success the invitation is consumed
/// (single use), the user becomes a member and their email is marked verified. Expired
/// invitations (virtual clock) are refused.
struct InvitationAcceptance {
  let tenant: MockTenant

  static let defaultConnection = "Username-Password-Authentication"

  /// Starts the acceptance transaction, or redirects with the error.
  func begin(ticket: String, request: AuthorizeRequest) async -> Response {
    var request = request
    let completion = AuthorizeCompletion(tenant: tenant)
    guard let organization = request.organization else {
      return completion.redirect(request, error: .missingParameter("organization"))
    }
    let now = tenant.clock.seconds
    switch tenant.read({
      $0.organizations.lookup(ticket: ticket, organizationID: organization.id, clientID: request.clientID, now: now)
    }) {
    case .invalid:
      return completion.redirect(request, error: .invalidInvitation)
    case .expired:
      return completion.redirect(request, error: .expiredInvitation)
    case .valid(let invitation):
      request.invitation = invitation
      request.loginHint = invitation.inviteeEmail
      let connection = request.connection ?? Self.defaultConnection
      let exists = tenant.read({ $0.users.find(invitation.inviteeEmail, connection: connection) }) != nil
      let transaction = LoginTransaction(
        id: RandomToken.make(bytes: 24), request: request, csrf: RandomToken.make(bytes: 24))
      tenant.transact { $0.startLogin(transaction, expiresAt: now + AuthorizeRoutes.loginLifetime) }
      let screen = exists ? "login" : "signup"
      return Responses.redirect(
        "/u/\(screen)?state=\(FormEncoding.escape(transaction.id))",
        cookies: [TransactionBinding.cookie(for: transaction, tenant: tenant)])
    }
  }

  /// Whether `identifier` is the invited address (always true without an invitation).
  static func matches(_ identifier: String, _ transaction: LoginTransaction) -> Bool {
    guard let invitation = transaction.request.invitation else { return true }
    return invitation.inviteeEmail.lowercased() == identifier.lowercased()
  }

  /// Consumes the invitation for `userID`: membership and a verified email, in one step
  /// (``MockState/acceptInvitation(_:userID:now:)``). The error when the invitation was used or
  /// expired in the meantime.
  func accept(_ invitation: Invitation, userID: String) async -> AuthorizeError? {
    let now = tenant.clock.seconds
    guard tenant.transact({ $0.acceptInvitation(invitation, userID: userID, now: now) }) != nil else {
      return invitation.expiresAt > now ? .invalidInvitation : .expiredInvitation
    }
    return nil
  }

  /// The notice shown above the form.
  static func notice(for transaction: LoginTransaction, tenant: MockTenant) -> String? {
    guard let invitation = transaction.request.invitation else { return nil }
    let organization = transaction.request.organization?.displayName ?? invitation.organizationID
    return "\(invitation.inviterName) has invited you to join \(organization)."
  }
}
