import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The organization prompt (`/u/organization`): shown when the client requires an organization
/// (`organization_usage: require`, `organization_require_behavior: pre_login_prompt`) and
/// `/authorize` named none. The user types the organization's name (or id); the transaction then
/// continues to the login page, or ends at once when the browser's SSO session may answer.
struct OrganizationPromptRoutes {
  let tenant: MockTenant

  static let field = "organization_name"

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showOrganizationPrompt": { request, _ in
        guard let transaction = tenant.loginTransaction(RequestParameters.query(of: request).string("state")) else {
          return AuthorizeError.unknownTransaction.page()
        }
        return Responses.html(OrganizationPages.prompt(transaction, clientName: clientName(transaction)))
      },
      "submitOrganizationPrompt": { request, context in await submit(request, context: context) },
    ]
  }

  private func submit(_ request: Request, context: BasicRequestContext) async -> Response {
    let post = await GuardedFormPost.check(request, context: context, tenant: tenant) { tenant.loginTransaction($0) }
    guard case .accepted(let form, let transaction) = post else { return post.refusal }
    guard let entered = form.string(Self.field)?.trimmingWhitespace(), !entered.isEmpty else {
      return Responses.html(
        OrganizationPages.prompt(
          transaction, clientName: clientName(transaction), error: LoginMessages.missingOrganization),
        status: .badRequest)
    }
    guard let organization = lookup(entered) else {
      return Responses.html(
        OrganizationPages.prompt(
          transaction, clientName: clientName(transaction), error: LoginMessages.unknownOrganization, value: entered),
        status: .badRequest)
    }
    let now = tenant.clock.seconds
    guard
      let chosen = tenant.transact({
        $0.chooseOrganization(organization, login: transaction.id, now: now, lifetime: AuthorizeRoutes.loginLifetime)
      })
    else { return AuthorizeError.unknownTransaction.page() }
    let routes = AuthorizeRoutes(tenant: tenant)
    if chosen.sessionAllowed, let session = await routes.currentSession(request),
      routes.satisfies(session, chosen.request),
      let taken = tenant.transact({ $0.takeLogin(chosen.id, now: now) })
    {
      return await AuthorizeCompletion(tenant: tenant).finish(
        taken.request, userID: session.userID, authTime: session.authTime)
    }
    return Responses.redirect("/u/\(chosen.screen)?state=\(FormEncoding.escape(chosen.id))")
  }

  /// The organization by id or by (case-insensitive) name: the prompt takes names whatever the
  /// tenant's "names in the Authentication API" setting.
  private func lookup(_ entered: String) -> OrganizationConfig? {
    let lowered = entered.lowercased()
    return tenant.fixture.organizations.first { $0.id == entered || $0.name == lowered }
  }

  private func clientName(_ transaction: LoginTransaction) -> String {
    tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
  }
}
