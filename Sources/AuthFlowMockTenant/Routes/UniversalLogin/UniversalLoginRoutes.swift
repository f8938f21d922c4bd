import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The Universal Login pages: `/u/login` and `/u/signup`, GET renders, POST submits. Each form is
/// bound to its transaction by a CSRF field.
struct UniversalLoginRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showLoginPage": { request, _ in await show(request, signup: false) },
      "showSignupPage": { request, _ in await show(request, signup: true) },
      "submitLogin": { request, context in await submit(request, context: context, signup: false) },
      "submitSignup": { request, context in await submit(request, context: context, signup: true) },
    ]
  }

  private func show(_ request: Request, signup: Bool) async -> Response {
    guard let transaction = tenant.loginTransaction(RequestParameters.query(of: request).string("state")) else {
      return AuthorizeError.unknownTransaction.page()
    }
    return render(transaction, signup: signup)
  }

  private func submit(_ request: Request, context: BasicRequestContext, signup: Bool) async -> Response {
    let post = await GuardedFormPost.check(request, context: context, tenant: tenant) { tenant.loginTransaction($0) }
    guard case .accepted(let form, let transaction) = post else { return post.refusal }
    let identifier = form.string(signup ? "email" : "username") ?? form.string("email")
    guard let identifier, let password = form.string("password") else {
      return render(transaction, signup: signup, error: LoginMessages.missingFields, status: .badRequest)
    }
    guard InvitationAcceptance.matches(identifier, transaction) else {
      return render(
        transaction, signup: signup, error: LoginMessages.invitationEmailMismatch, value: identifier,
        status: .badRequest)
    }
    let connection = transaction.request.connection ?? "Username-Password-Authentication"
    if BotDetection(tenant: tenant).isSuspicious(identifier: identifier),
      !BotDetection.verify(form.string("captcha"), for: transaction)
    {
      return render(
        transaction, signup: signup, error: LoginMessages.challengeFailed, value: identifier, status: .badRequest)
    }
    let userID: String
    if signup {
      // The connection's password rules, as `/dbconnections/signup` applies them (policy,
      // dictionary, personal data).
      if let failure = await PasswordRules(tenant: tenant).failure(
        for: password, userID: nil, personalInfo: [identifier])
      {
        return render(
          transaction, signup: true, error: failure.pageMessage, value: identifier, status: .badRequest)
      }
      let user = UserRecord(
        profile: identifier, userID: "auth0|\(RandomToken.make(bytes: 12))", connection: connection, email: identifier,
        emailVerified: false, password: password, updatedAt: tenant.clock.seconds)
      guard case .created = tenant.transact({ $0.signUp(user) }) else {
        return render(
          transaction, signup: true, error: LoginMessages.userExists, value: identifier, status: .badRequest)
      }
      userID = user.userID
    } else {
      switch BruteForce(tenant: tenant).check(
        password, identifier: identifier, connection: connection, ip: form.clientIP)
      {
      case .blocked:
        return render(
          transaction, signup: false, error: LoginMessages.tooManyAttempts, value: identifier, status: .tooManyRequests)
      case .wrong:
        return render(
          transaction, signup: false, error: LoginMessages.wrongCredentials, value: identifier, status: .badRequest)
      case .accepted(let user):
        if user.mfa.contains(where: { $0.kind == .totp }) {
          return await UniversalLoginMFARoutes(tenant: tenant).begin(transaction, userID: user.userID)
        }
        userID = user.userID
      }
    }
    return await finishLogin(transaction.id, userID: userID)
  }

  /// Takes the stored transaction `id` (so it finishes once) and completes its login; the error
  /// page when it is gone — finished by a concurrent post, abandoned, or expired.
  func finishLogin(_ id: String, userID: String) async -> Response {
    let now = tenant.clock.seconds
    guard let taken = tenant.transact({ $0.takeLogin(id, now: now) }) else {
      return AuthorizeError.unknownTransaction.page()
    }
    return await completeLogin(taken, userID: userID)
  }

  /// Ends `transaction` — one already taken out of the state (``finishLogin(_:userID:)``), or one
  /// never stored — with a new SSO session and the redirect to the callback.
  func completeLogin(_ transaction: LoginTransaction, userID: String) async -> Response {
    if let invitation = transaction.request.invitation {
      let user = tenant.user(id: userID)
      guard let email = user?.email, InvitationAcceptance.matches(email, transaction) else {
        return AuthorizeCompletion(tenant: tenant).redirect(transaction.request, error: .invalidInvitation)
      }
      if let error = await InvitationAcceptance(tenant: tenant).accept(invitation, userID: userID) {
        return AuthorizeCompletion(tenant: tenant).redirect(transaction.request, error: error)
      }
    }
    // A blocked user gets the error on the callback and no SSO session.
    if let user = tenant.user(id: userID), user.blocked {
      return AuthorizeCompletion(tenant: tenant).redirect(transaction.request, error: .blockedUser)
    }
    let now = tenant.clock.seconds
    let sessionID = RandomToken.make(bytes: 24)
    let expiresAt = now + Double(tenant.fixture.settings.sessionLifetime)
    tenant.transact { $0.openSession(SSOSession(userID: userID, authTime: now), id: sessionID, expiresAt: expiresAt) }
    let cookie = SessionCookie.make(sessionID, tenant: tenant)
    return await AuthorizeCompletion(tenant: tenant).finish(
      transaction.request, userID: userID, authTime: now, cookies: [cookie])
  }

  private func render(
    _ transaction: LoginTransaction, signup: Bool, error: String? = nil, value: String? = nil,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    let clientName = tenant.client(id: transaction.request.clientID)?.name ?? "the application"
    let challenge = tenant.fixture.settings.botDetection ? BotDetection.challengeAnswer(for: transaction) : nil
    let notice = InvitationAcceptance.notice(for: transaction, tenant: tenant)
    let text =
      signup
      ? LoginPages.signup(
        transaction: transaction, clientName: clientName, error: error, email: value, challenge: challenge,
        notice: notice)
      : LoginPages.login(
        transaction: transaction, clientName: clientName, error: error, username: value, challenge: challenge,
        notice: notice)
    return Responses.html(text, status: status)
  }
}
