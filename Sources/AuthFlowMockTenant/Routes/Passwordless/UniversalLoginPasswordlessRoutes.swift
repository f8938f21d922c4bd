import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// Universal Login for passwordless connections: `/authorize?connection=email` (or `sms`) shows
/// `/u/passwordless` (the address), which sends a code to the outbox as `/passwordless/start`
/// with `send=code` does, then `/u/passwordless-challenge` (the code). A right code ends the
/// transaction like a password login (SSO cookie, callback); wrong codes count against the code as
/// `PasswordlessCodes` says. Both forms are bound to the transaction by `_csrf`.
struct UniversalLoginPasswordlessRoutes {
  let tenant: MockTenant

  static let addressPath = "/u/passwordless"
  static let codePath = "/u/passwordless-challenge"

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showPasswordlessAddressPage": { request, _ in
        guard let (transaction, connection) = await pending(RequestParameters.query(of: request).string("state")) else {
          return AuthorizeError.unknownTransaction.page()
        }
        return addressPage(transaction, connection: connection)
      },
      "submitPasswordlessAddress": { request, context in await submitAddress(request, context: context) },
      "showPasswordlessCodePage": { request, _ in
        guard let (transaction, connection) = await pending(RequestParameters.query(of: request).string("state")),
          let address = transaction.passwordlessAddress
        else { return AuthorizeError.unknownTransaction.page() }
        return codePage(transaction, connection: connection, address: address)
      },
      "submitPasswordlessCode": { request, context in await submitCode(request, context: context) },
    ]
  }

  /// Whether `/authorize` should send this transaction to the passwordless pages.
  static func handles(_ connection: ConnectionConfig?) -> Bool {
    connection?.strategy == .email || connection?.strategy == .sms
  }

  private func submitAddress(_ request: Request, context: BasicRequestContext) async -> Response {
    let verification = await verified(request, context: context)
    guard case .success(let transaction, let connection, let form) = verification else {
      return verification.rejection
    }
    let sms = connection.strategy == .sms
    let entered = form.string(sms ? "phone_number" : "email")?.trimmingWhitespace() ?? ""
    let valid = sms ? PasswordlessRoutes.isE164(entered) : entered.contains("@") && entered.count <= 320
    guard valid else {
      return addressPage(
        transaction, connection: connection, error: sms ? LoginMessages.invalidPhone : LoginMessages.invalidEmail,
        value: entered, status: .badRequest)
    }
    let now = tenant.clock.seconds
    guard
      tenant.transact({
        $0.setPasswordlessAddress(entered, login: transaction.id, now: now, lifetime: AuthorizeRoutes.loginLifetime)
      })
    else { return AuthorizeError.unknownTransaction.page() }
    await PasswordlessCodes(tenant: tenant).send(connection: connection, address: entered)
    return Responses.redirect("\(Self.codePath)?state=\(FormEncoding.escape(transaction.id))")
  }

  private func submitCode(_ request: Request, context: BasicRequestContext) async -> Response {
    let verification = await verified(request, context: context)
    guard case .success(let transaction, let connection, let form) = verification else {
      return verification.rejection
    }
    guard let address = transaction.passwordlessAddress else {
      return AuthorizeError.unknownTransaction.page()
    }
    let sms = connection.strategy == .sms
    guard let code = form.string("code")?.trimmingWhitespace(), !code.isEmpty else {
      return codePage(
        transaction, connection: connection, address: address, error: LoginMessages.missingCode, status: .badRequest)
    }
    let codes = PasswordlessCodes(tenant: tenant)
    switch await codes.check(code, connection: connection.name, address: address) {
    case .accepted:
      let user = await codes.user(connection: connection, address: address)
      return await UniversalLoginRoutes(tenant: tenant).finishLogin(transaction.id, userID: user.userID)
    case .wrong:
      return codePage(
        transaction, connection: connection, address: address,
        error: sms ? LoginMessages.wrongPhoneCode : LoginMessages.wrongEmailCode, status: .badRequest)
    case .exhausted:
      tenant.transact { $0.abandonLogin(transaction.id) }
      return Responses.html(
        LoginPages.error(code: "too_many_attempts", description: LoginMessages.tooManyCodeAttempts),
        status: .tooManyRequests)
    }
  }

  private enum Verification {
    case success(LoginTransaction, ConnectionConfig, RequestParameters)
    case rejected(Response)

    var rejection: Response {
      if case .rejected(let response) = self { return response }
      return Responses.empty(status: .badRequest)
    }
  }

  /// The transaction of a form submission, with its CSRF field checked; an error page otherwise.
  private func verified(_ request: Request, context: BasicRequestContext) async -> Verification {
    let post = await GuardedFormPost.check(
      request, context: context, tenant: tenant, find: { await self.pending($0) }, transaction: { $0.0 })
    guard case .accepted(let form, (let transaction, let connection)) = post else { return .rejected(post.refusal) }
    return .success(transaction, connection, form)
  }

  /// A live transaction whose `/authorize` named a passwordless connection.
  private func pending(_ id: String?) async -> (LoginTransaction, ConnectionConfig)? {
    guard let transaction = tenant.loginTransaction(id),
      let name = transaction.request.connection, let connection = tenant.fixture.connection(named: name),
      Self.handles(connection)
    else { return nil }
    return (transaction, connection)
  }

  private func addressPage(
    _ transaction: LoginTransaction, connection: ConnectionConfig, error: String? = nil, value: String? = nil,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    Responses.html(
      PasswordlessPages.address(
        transaction: transaction, clientName: clientName(transaction), sms: connection.strategy == .sms,
        error: error, value: value),
      status: status)
  }

  private func codePage(
    _ transaction: LoginTransaction, connection: ConnectionConfig, address: String, error: String? = nil,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    Responses.html(
      PasswordlessPages.code(
        transaction: transaction, address: address, sms: connection.strategy == .sms, error: error),
      status: status)
  }

  private func clientName(_ transaction: LoginTransaction) -> String {
    tenant.fixture.client(id: transaction.request.clientID)?.name ?? "the application"
  }
}
