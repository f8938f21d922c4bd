import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The links of the mock's emails: `/lo/reset` (password reset form; a reset also clears the
/// user's brute-force blocks) and `/lo/unblock` (brute-force unblock). Tickets are single use.
struct TicketRoutes {
  let tenant: MockTenant

  static let unblocked = "Your account has been unblocked."
  static let passwordChanged = "Password changed. You can now log in with the new password."
  static let invalidTicket = AuthorizeError(code: "invalid_ticket", description: "This link is invalid or has expired.")

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "redeemUnblockTicket": { request, _ in
        let ticket = RequestParameters.query(of: request).string("ticket") ?? ""
        let now = tenant.clock.seconds
        guard tenant.transact({ $0.redeemUnblockTicket(ticket, now: now) }) else { return Self.errorPage }
        return Responses.html(
          LoginPages.page(title: "Unblocked", kind: "unblocked", body: "<h1>\(Self.unblocked)</h1>"))
      },
      "showPasswordResetTicket": { request, _ in
        let ticket = RequestParameters.query(of: request).string("ticket") ?? ""
        guard case .resetPassword? = liveTicket(ticket) else { return Self.errorPage }
        return Responses.html(Self.resetForm(ticket: ticket, error: nil))
      },
      "submitPasswordResetTicket": { request, context in
        let query = RequestParameters.query(of: request)
        guard let form = await RequestParameters.body(of: request, context: context),
          let ticket = query.string("ticket") ?? form.string("ticket"),
          case .resetPassword(let owner)? = liveTicket(ticket)
        else { return Self.errorPage }
        let policy = tenant.fixture.settings.passwordPolicy
        guard let password = form.string("password") else {
          return Responses.html(
            Self.resetForm(ticket: ticket, error: "Password is too weak:\n" + policy.text), status: .badRequest)
        }
        if let failure = await PasswordRules(tenant: tenant).failure(for: password, userID: owner) {
          return Responses.html(Self.resetForm(ticket: ticket, error: failure.pageMessage), status: .badRequest)
        }
        // The ticket is used up and the password set in one step.
        let now = tenant.clock.seconds
        guard tenant.transact({ $0.resetPassword(ticket: ticket, to: password, now: now) }) else {
          return Self.errorPage
        }
        return Responses.html(
          LoginPages.page(title: "Password changed", kind: "password-changed", body: "<h1>\(Self.passwordChanged)</h1>")
        )
      },
    ]
  }

  /// The live ticket `id` (read, not used up).
  private func liveTicket(_ id: String) -> AttackProtection.Ticket? {
    let now = tenant.clock.seconds
    return tenant.read { $0.protection.ticket(id, now: now) }
  }

  static var errorPage: Response {
    Responses.html(
      LoginPages.error(code: invalidTicket.code, description: invalidTicket.description), status: .badRequest)
  }

  static func resetForm(ticket: String, error: String?) -> String {
    LoginPages.page(
      title: "Change your password", kind: "reset-password",
      body: """
        <h1>Change Your Password</h1>
        \(LoginPages.errorElement(error))
        <form method="POST" action="/lo/reset?ticket=\(HTML.escape(FormEncoding.escape(ticket)))" id="reset-form">
          <label for="password">New password</label>
          <input type="password" id="password" name="password" autocomplete="new-password" required>
          <button type="submit" name="action" value="default">Reset password</button>
        </form>
        """)
  }
}
