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

  func register(on router: Router<BasicRequestContext>) {
    router.get("/lo/unblock") { request, _ in
      let ticket = RequestParameters.query(of: request).string("ticket") ?? ""
      guard case .unblock(let key)? = tenant.withState({ $0.protection.redeem(ticket, now: tenant.clock.seconds) })
      else {
        return Self.errorPage
      }
      tenant.withState { $0.users.clearFailures(key: key) }
      return Responses.html(LoginPages.page(title: "Unblocked", kind: "unblocked", body: "<h1>\(Self.unblocked)</h1>"))
    }
    router.get("/lo/reset") { request, _ in
      let ticket = RequestParameters.query(of: request).string("ticket") ?? ""
      guard case .resetPassword? = tenant.withState({ $0.protection.ticket(ticket, now: tenant.clock.seconds) }) else {
        return Self.errorPage
      }
      return Responses.html(Self.resetForm(ticket: ticket, error: nil))
    }
    router.post("/lo/reset") { request, context in
      let query = RequestParameters.query(of: request)
      guard let form = await RequestParameters.body(of: request, context: context),
        let ticket = query.string("ticket") ?? form.string("ticket"),
        case .resetPassword(let owner)? = tenant.withState({ $0.protection.ticket(ticket, now: tenant.clock.seconds) })
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
      let changed = tenant.withState { state in
        guard case .resetPassword(let userID)? = state.protection.redeem(ticket, now: now) else { return false }
        return state.users.setPassword(password, userID: userID, now: now)
      }
      guard changed else { return Self.errorPage }
      return Responses.html(
        LoginPages.page(title: "Password changed", kind: "password-changed", body: "<h1>\(Self.passwordChanged)</h1>"))
    }
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
