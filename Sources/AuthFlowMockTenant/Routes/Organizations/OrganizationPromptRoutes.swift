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

  func register(on router: Router<BasicRequestContext>) {
    router.get("/u/organization") { request, _ in
      guard let transaction = await transaction(RequestParameters.query(of: request).string("state")) else {
        return errorPage(.unknownTransaction, status: .badRequest)
      }
      return Responses.html(Self.page(transaction, clientName: clientName(transaction)))
    }
    router.post("/u/organization") { request, context in await submit(request, context: context) }
  }

  private func submit(_ request: Request, context: BasicRequestContext) async -> Response {
    let post = await GuardedFormPost.check(request, context: context, tenant: tenant) { await self.transaction($0) }
    guard case .accepted(let form, var transaction) = post else { return post.refusal }
    guard let entered = form.string(Self.field)?.trimmingWhitespace(), !entered.isEmpty else {
      return Responses.html(
        Self.page(transaction, clientName: clientName(transaction), error: LoginMessages.missingOrganization),
        status: .badRequest)
    }
    guard let organization = lookup(entered) else {
      return Responses.html(
        Self.page(
          transaction, clientName: clientName(transaction), error: LoginMessages.unknownOrganization, value: entered),
        status: .badRequest)
    }
    transaction.request.organization = organization
    let routes = AuthorizeRoutes(tenant: tenant)
    if transaction.sessionAllowed, let session = await routes.currentSession(request),
      routes.satisfies(session, transaction.request)
    {
      tenant.withState { $0.transactions.remove(transaction.id) }
      return await AuthorizeCompletion(tenant: tenant).finish(
        transaction.request, userID: session.userID, authTime: session.authTime)
    }
    tenant.withState {
      $0.transactions.insert(transaction, key: transaction.id, expiresAt: tenant.clock.seconds + 3600)
    }
    return Responses.redirect("/u/\(transaction.screen)?state=\(FormEncoding.escape(transaction.id))")
  }

  /// The organization by id or by (case-insensitive) name: the prompt takes names whatever the
  /// tenant's "names in the Authentication API" setting.
  private func lookup(_ entered: String) -> OrganizationConfig? {
    let lowered = entered.lowercased()
    return tenant.fixture.organizations.first { $0.id == entered || $0.name == lowered }
  }

  private func transaction(_ id: String?) async -> LoginTransaction? {
    guard let id else { return nil }
    return tenant.withState { $0.transactions.get(id, now: tenant.clock.seconds) }
  }

  private func clientName(_ transaction: LoginTransaction) -> String {
    tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
  }

  private func errorPage(_ error: AuthorizeError, status: HTTPResponse.Status) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: status)
  }

  /// The prompt page.
  static func page(
    _ transaction: LoginTransaction, clientName: String, error: String? = nil, value: String? = nil
  ) -> String {
    let action = "/u/organization?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    return LoginPages.page(
      title: "Enter your organization | \(clientName)", kind: "organization",
      body: """
        <h1>Enter Your Organization</h1>
        <p>Enter your organization name to continue to \(HTML.escape(clientName)).</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="organization-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          <label for="\(field)">Organization name</label>
          <input type="text" id="\(field)" name="\(field)" autocomplete="organization" value="\(HTML.escape(value ?? ""))" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        """)
  }
}
