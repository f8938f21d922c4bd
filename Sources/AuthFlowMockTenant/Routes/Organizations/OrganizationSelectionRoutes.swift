import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The organization picker after login (`/u/organization-selection`): shown when the client
/// requires an organization with `organization_require_behavior: post_login_prompt` and
/// `/authorize` named none. It lists the user's organizations; the user types one's name (or id),
/// and the authorization ends for it (membership and the organization's connections checked by
/// `AuthorizeCompletion`). A user in no organization gets `access_denied` on the callback.
struct OrganizationSelectionRoutes {
  let tenant: MockTenant

  static let path = "/u/organization-selection"

  func register(on router: Router<BasicRequestContext>) {
    router.get("/u/organization-selection") { request, _ in
      guard let (transaction, userID) = await pending(RequestParameters.query(of: request).string("state")) else {
        return errorPage(.unknownTransaction, status: .badRequest)
      }
      return await render(transaction, userID: userID)
    }
    router.post("/u/organization-selection") { request, context in await submit(request, context: context) }
  }

  /// Moves an authorization whose user just logged in to the picker (the SSO cookie of that login
  /// goes with the redirect).
  func begin(_ request: AuthorizeRequest, userID: String, authTime: Double, cookies: [Cookie]) async -> Response {
    guard await !organizations(of: userID).isEmpty else {
      return AuthorizeCompletion(tenant: tenant).redirect(request, error: .noOrganizationMembership, cookies: cookies)
    }
    var transaction = LoginTransaction(
      id: RandomToken.make(bytes: 24), request: request, csrf: RandomToken.make(bytes: 24))
    transaction.pendingOrganizationUserID = userID
    transaction.pendingAuthTime = authTime
    tenant.withState {
      $0.transactions.insert(transaction, key: transaction.id, expiresAt: tenant.clock.seconds + 3600)
    }
    return Responses.redirect(
      "\(Self.path)?state=\(FormEncoding.escape(transaction.id))",
      cookies: cookies + [TransactionBinding.cookie(for: transaction, tenant: tenant)])
  }

  private func submit(_ request: Request, context: BasicRequestContext) async -> Response {
    let post = await GuardedFormPost.check(
      request, context: context, tenant: tenant, find: { await self.pending($0) }, transaction: { $0.0 })
    guard case .accepted(let form, (let transaction, let userID)) = post else { return post.refusal }
    let entered = form.string(OrganizationPromptRoutes.field)?.trimmingWhitespace() ?? ""
    let lowered = entered.lowercased()
    guard !entered.isEmpty else {
      return await render(transaction, userID: userID, error: LoginMessages.missingOrganization, status: .badRequest)
    }
    guard let organization = await organizations(of: userID).first(where: { $0.id == entered || $0.name == lowered })
    else {
      return await render(
        transaction, userID: userID, error: LoginMessages.notYourOrganization, value: entered, status: .badRequest)
    }
    tenant.withState { $0.transactions.remove(transaction.id) }
    var authorization = transaction.request
    authorization.organization = organization
    authorization.organizationSelection = false
    return await AuthorizeCompletion(tenant: tenant).finish(
      authorization, userID: userID, authTime: transaction.pendingAuthTime)
  }

  /// The organizations `userID` belongs to, in fixture order.
  private func organizations(of userID: String) async -> [OrganizationConfig] {
    var found: [OrganizationConfig] = []
    for organization in tenant.fixture.organizations {
      if tenant.withState({ $0.organizations.isMember(userID, of: organization.id) }) { found.append(organization) }
    }
    return found
  }

  private func pending(_ id: String?) async -> (LoginTransaction, String)? {
    guard let id, let transaction = tenant.withState({ $0.transactions.get(id, now: tenant.clock.seconds) }),
      let userID = transaction.pendingOrganizationUserID
    else { return nil }
    return (transaction, userID)
  }

  private func render(
    _ transaction: LoginTransaction, userID: String, error: String? = nil, value: String? = nil,
    status: HTTPResponse.Status = .ok
  ) async -> Response {
    let clientName = tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
    let items = await organizations(of: userID).map { organization in
      "<li data-organization=\"\(HTML.escape(organization.name))\">\(HTML.escape(organization.displayName)) "
        + "(<code>\(HTML.escape(organization.name))</code>)</li>"
    }
    let action = "\(Self.path)?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let field = OrganizationPromptRoutes.field
    let text = LoginPages.page(
      title: "Select your organization | \(clientName)", kind: "organization-selection",
      body: """
        <h1>Select Your Organization</h1>
        <p>Choose the organization to continue to \(HTML.escape(clientName)) with.</p>
        <ul id="organizations">\(items.joined())</ul>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="organization-selection-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          <label for="\(field)">Organization name</label>
          <input type="text" id="\(field)" name="\(field)" autocomplete="organization" value="\(HTML.escape(value ?? ""))" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        """)
    return Responses.html(text, status: status)
  }

  private func errorPage(_ error: AuthorizeError, status: HTTPResponse.Status) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: status)
  }
}
