import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// A simulated web social provider (the fixture's `github` connection and any social connection
/// with `accounts`): `/authorize?connection=github` sends the browser to the provider's OAuth
/// authorize page on the mock (`/social/<connection>/login/oauth/authorize`), a real consent form
/// where the user picks an account and accepts or denies; the provider redirects to the tenant's
/// `/login/callback` with a code (or `error=access_denied`), and the tenant finishes the
/// Universal Login transaction for the `<connection>|<id>` user — created on first login, its
/// profile refreshed on later ones, or the primary user when the identity is linked to one.
/// States and codes are single use.
struct SocialLoginRoutes {
  let tenant: MockTenant

  /// The provider's client id for the tenant (what a real tenant configures on the connection).
  static func providerClientID(_ connection: String) -> String { "authflow-mock-\(connection)" }
  static let stateLifetime: Double = 600
  static let codeLifetime: Double = 60
  /// GitHub's scope when the request names none.
  static let defaultScope = ["user:email"]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "socialShowConsent": { request, context in
        await consentPage(request, connection: context.parameters.get("connection") ?? "")
      },
      "socialDecideConsent": { request, context in
        await decide(request, context: context, connection: context.parameters.get("connection") ?? "")
      },
      "socialCallback": { request, _ in await callback(request) },
    ]
  }

  /// The connection, when it is one the mock simulates a web provider for.
  func simulated(_ name: String?) -> ConnectionConfig? {
    guard let name, let connection = tenant.fixture.connection(named: name), connection.strategy == .social,
      !connection.accounts.isEmpty
    else { return nil }
    return connection
  }

  /// `/authorize` hands a transaction for a simulated connection here: the redirect to the
  /// provider, or nil when the connection is not simulated.
  func start(_ transaction: LoginTransaction, connectionScope: String?) async -> Response? {
    guard let connection = simulated(transaction.request.connection) else { return nil }
    let state = RandomToken.make(bytes: 24)
    let scope = connectionScope.map { $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
    let login = SocialLoginState(
      transactionID: transaction.id, connection: connection.name, scope: scope ?? Self.defaultScope)
    let expiresAt = tenant.clock.seconds + Self.stateLifetime
    tenant.transact { $0.startSocialLogin(login, state: state, expiresAt: expiresAt) }
    var pairs = [
      ("client_id", Self.providerClientID(connection.name)), ("redirect_uri", tenant.baseURL + "login/callback"),
      ("state", state), ("scope", (scope ?? Self.defaultScope).joined(separator: " ")),
    ]
    if let hint = transaction.request.loginHint { pairs.append(("login", hint)) }
    // The callback is bound to this browser like the Universal Login pages (Login CSRF): the
    // binding cookie is sent to `/login/callback` too.
    return Responses.redirect(
      "/social/\(FormEncoding.escape(connection.name))/login/oauth/authorize?" + FormEncoding.encode(pairs),
      cookies: [
        TransactionBinding.cookie(for: transaction, tenant: tenant, path: TransactionBinding.socialCallbackPath)
      ]
    )
  }

  // MARK: The provider

  private func consentPage(_ request: Request, connection name: String) async -> Response {
    let query = RequestParameters.query(of: request)
    guard let connection = simulated(name), query.string("client_id") == Self.providerClientID(name),
      query.string("redirect_uri") == tenant.baseURL + "login/callback", let state = query.string("state"),
      let pending = pendingLogin(state), pending.connection == name
    else { return SocialMessages.badProviderRequest.page() }
    let transaction = tenant.loginTransaction(pending.transactionID)
    let clientName = transaction.flatMap { tenant.fixture.client(id: $0.request.clientID)?.name } ?? "the application"
    return Responses.html(
      SocialPages.consent(
        connection: connection, state: state, clientName: clientName, scope: pending.scope,
        hint: query.string("login")))
  }

  private func decide(_ request: Request, context: BasicRequestContext, connection name: String) async -> Response {
    guard simulated(name) != nil, let form = await RequestParameters.body(of: request, context: context),
      let state = form.string("state"), let pending = pendingLogin(state), pending.connection == name
    else { return SocialMessages.badProviderRequest.page() }
    let callback = tenant.baseURL + "login/callback"
    guard form.string("authorize") == "accept" else {
      return Responses.redirect(
        FormEncoding.append(
          [("error", "access_denied"), ("error_description", SocialMessages.providerDenied), ("state", state)],
          to: callback, fragment: false))
    }
    guard let connection = simulated(name),
      let account = connection.accounts.first(where: { $0.userID == form.string("account") })
    else { return SocialMessages.unknownAccount.page() }
    let code = RandomToken.make(bytes: 20)
    let expiresAt = tenant.clock.seconds + Self.codeLifetime
    tenant.transact {
      $0.issueSocialCode(SocialLoginCode(state: state, account: account), code: code, expiresAt: expiresAt)
    }
    return Responses.redirect(FormEncoding.append([("code", code), ("state", state)], to: callback, fragment: false))
  }

  // MARK: The tenant's callback

  private func callback(_ request: Request) async -> Response {
    let query = RequestParameters.query(of: request)
    let now = tenant.clock.seconds
    guard let state = query.string("state"), let known = pendingLogin(state),
      let transaction = tenant.loginTransaction(known.transactionID)
    else { return SocialMessages.unknownState.page() }
    // A callback opened in another browser (a link an attacker got from their own login) is
    // refused and leaves the transaction as it was: its state is not used up.
    if let refusal = TransactionBinding.refusal(request, transaction: transaction, tenant: tenant) {
      return refusal.page(status: .forbidden)
    }
    guard let pending = tenant.transact({ $0.takeSocialState(state, now: now) }) else {
      return SocialMessages.unknownState.page()
    }
    let completion = AuthorizeCompletion(tenant: tenant)
    if let error = query.string("error") {
      tenant.transact { $0.abandonLogin(transaction.id) }
      return completion.redirect(
        transaction.request,
        error: AuthorizeError(code: error, description: query.string("error_description") ?? error))
    }
    guard let code = query.string("code"), let issued = tenant.transact({ $0.takeSocialCode(code, now: now) }),
      RandomToken.constantTimeEquals(issued.state, state)
    else {
      tenant.transact { $0.abandonLogin(transaction.id) }
      return completion.redirect(transaction.request, error: SocialMessages.invalidProviderCode)
    }
    let userID = signIn(issued.account, connection: pending.connection, now: now)
    return await UniversalLoginRoutes(tenant: tenant).finishLogin(transaction.id, userID: userID)
  }

  /// The live login at the provider that `state` names.
  private func pendingLogin(_ state: String) -> SocialLoginState? {
    let now = tenant.clock.seconds
    return tenant.read { $0.social.states.live(state, now: now) }
  }

  /// The user the provider account logs in as: the primary of a linked identity, else the
  /// `<connection>|<id>` user, created or refreshed from the provider profile (in one step).
  private func signIn(_ account: SocialAccount, connection: String, now: Double) -> String {
    let fresh = UserRecord(
      profile: account.login, userID: "\(connection)|\(account.userID)", connection: connection, updatedAt: now)
    let user = tenant.transact {
      $0.providerLogin(fresh, followLinks: true, refresh: { Self.refresh(&$0, from: account, now: now) })
    }
    return user.userID
  }

  /// The provider's profile, as the tenant copies it on every login.
  static func refresh(_ user: inout UserRecord, from account: SocialAccount, now: Double) {
    user.email = account.email
    user.emailVerified = account.email != nil
    user.name = account.name ?? account.login
    user.nickname = account.login
    user.picture = account.picture
    user.updatedAt = now
  }
}

/// The simulated provider's messages (GitHub's denial text; the rest are the mock's).
enum SocialMessages {
  static let providerDenied = "The user has denied your application access."
  static let badProviderRequest = AuthorizeError(
    code: "invalid_request", description: "The social provider request is invalid or has expired.")
  static let unknownAccount = AuthorizeError(
    code: "invalid_request", description: "Choose one of the provider's accounts.")
  static let unknownState = AuthorizeError(
    code: "invalid_request", description: "The social login state is unknown, expired or already used.")
  static let invalidProviderCode = AuthorizeError(
    code: "access_denied", description: "The social provider's authorization code is invalid.")
}
