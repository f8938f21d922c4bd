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

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showOrganizationSelection": { request, _ in
        guard let (transaction, userID) = await pending(RequestParameters.query(of: request).string("state")) else {
          return AuthorizeError.unknownTransaction.page()
        }
        return await render(transaction, userID: userID)
      },
      "submitOrganizationSelection": { request, context in await submit(request, context: context) },
    ]
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
    let expiresAt = tenant.clock.seconds + AuthorizeRoutes.loginLifetime
    tenant.transact { $0.startLogin(transaction, expiresAt: expiresAt) }
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
    let now = tenant.clock.seconds
    guard let taken = tenant.transact({ $0.takeLogin(transaction.id, now: now) }) else {
      return AuthorizeError.unknownTransaction.page()
    }
    var authorization = taken.request
    authorization.organization = organization
    authorization.organizationSelection = false
    return await AuthorizeCompletion(tenant: tenant).finish(
      authorization, userID: userID, authTime: taken.pendingAuthTime)
  }

  /// The organizations `userID` belongs to, in fixture order.
  private func organizations(of userID: String) async -> [OrganizationConfig] {
    var found: [OrganizationConfig] = []
    for organization in tenant.fixture.organizations {
      if tenant.read({ $0.organizations.isMember(userID, of: organization.id) }) { found.append(organization) }
    }
    return found
  }

  private func pending(_ id: String?) async -> (LoginTransaction, String)? {
    guard let transaction = tenant.loginTransaction(id),
      let userID = transaction.pendingOrganizationUserID
    else { return nil }
    return (transaction, userID)
  }

  private func render(
    _ transaction: LoginTransaction, userID: String, error: String? = nil, value: String? = nil,
    status: HTTPResponse.Status = .ok
  ) async -> Response {
    let clientName = tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
    let text = OrganizationPages.selection(
      transaction, clientName: clientName, organizations: await organizations(of: userID), error: error, value: value)
    return Responses.html(text, status: status)
  }
}
