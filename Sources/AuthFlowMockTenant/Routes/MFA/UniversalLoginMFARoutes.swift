import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The MFA step of Universal Login: after the password of a user enrolled in TOTP, a code form
/// (`code`, bound to the transaction by `_csrf`) at `/u/mfa-otp-challenge`. Wrong codes show an
/// error; `maxFailures` wrong codes block the transaction.
struct UniversalLoginMFARoutes {
  let tenant: MockTenant

  static let path = "/u/mfa-otp-challenge"
  static let maxFailures = 5
  /// How long the code form stays valid, seconds.
  static let lifetime = 600.0

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "showMFAOTPChallengePage": { request, _ in
        guard let transaction = await pending(RequestParameters.query(of: request).string("state")) else {
          return AuthorizeError.unknownTransaction.page()
        }
        return render(transaction)
      },
      "submitMFAOTPChallenge": { request, context in await submit(request, context: context) },
    ]
  }

  /// Moves `transaction` to the MFA step for `userID` and shows the code form (the error page when
  /// the transaction is gone meanwhile).
  func begin(_ transaction: LoginTransaction, userID: String) async -> Response {
    let now = tenant.clock.seconds
    guard
      let updated = tenant.transact({
        $0.beginMFAPage(login: transaction.id, userID: userID, now: now, lifetime: Self.lifetime)
      })
    else { return AuthorizeError.unknownTransaction.page() }
    return render(updated)
  }

  private func submit(_ request: Request, context: BasicRequestContext) async -> Response {
    let post = await GuardedFormPost.check(request, context: context, tenant: tenant) { await self.pending($0) }
    guard case .accepted(let form, let transaction) = post, let userID = transaction.pendingMFAUserID else {
      return post.refusal
    }
    guard let code = form.string("code") else {
      return render(transaction, error: LoginMessages.missingMFACode, status: .badRequest)
    }
    guard let user = tenant.read({ $0.users.user(id: userID) }) else {
      return AuthorizeError.unknownTransaction.page()
    }
    let instant = tenant.clock.now()
    let now = instant.timeIntervalSince1970
    // The user's attempt bucket spans transactions: starting a new login does not buy more guesses.
    let throttle = MFAThrottle(tenant: tenant)
    guard throttle.reserve(userID) else {
      tenant.transact { $0.abandonLogin(transaction.id) }
      return Responses.html(
        LoginPages.error(code: "too_many_attempts", description: LoginMessages.mfaBlocked), status: .tooManyRequests)
    }
    let valid = user.mfa.contains { factor in
      factor.kind == .totp && (TOTP(base32Secret: factor.secret)?.verify(code, at: instant) ?? false)
    }
    guard valid else {
      // The attempt taken by `reserve` stays taken: a wrong code, counted against the transaction
      // in one step of the state (concurrent wrong codes each count).
      let counted = tenant.transact {
        $0.countMFAPageFailure(
          transaction: transaction.id, now: now, maxFailures: Self.maxFailures, lifetime: Self.lifetime)
      }
      switch counted {
      case .unknownTransaction:
        return AuthorizeError.unknownTransaction.page()
      case .tooManyAttempts:
        return Responses.html(
          LoginPages.error(code: "too_many_attempts", description: LoginMessages.mfaBlocked), status: .tooManyRequests)
      case .wrong(let counted):
        return render(counted, error: LoginMessages.wrongMFACode, status: .badRequest)
      }
    }
    throttle.refund(userID)
    // A transaction finishes once: not after a concurrent wrong code blocked it, nor twice.
    guard let live = tenant.transact({ $0.takeMFAPageTransaction(transaction.id, now: now) }) else {
      return AuthorizeError.unknownTransaction.page()
    }
    return await UniversalLoginRoutes(tenant: tenant).completeLogin(live, userID: userID)
  }

  private func pending(_ id: String?) async -> LoginTransaction? {
    guard let transaction = tenant.loginTransaction(id), transaction.pendingMFAUserID != nil else { return nil }
    return transaction
  }

  private func render(
    _ transaction: LoginTransaction, error: String? = nil, status: HTTPResponse.Status = .ok
  )
    -> Response
  {
    let action = "\(Self.path)?state=\(HTML.escape(FormEncoding.escape(transaction.id)))"
    let text = LoginPages.page(
      title: "Verify your identity", kind: "mfa-otp",
      body: """
        <h1>Verify Your Identity</h1>
        <p>Check your preferred one-time password application for a code.</p>
        \(LoginPages.errorElement(error))
        <form method="POST" action="\(action)" id="mfa-form">
          <input type="hidden" name="state" value="\(HTML.escape(transaction.id))">
          <input type="hidden" name="_csrf" value="\(HTML.escape(transaction.csrf))">
          <label for="code">Enter your one-time code</label>
          <input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
          <button type="submit" name="action" value="default">Continue</button>
        </form>
        """)
    return Responses.html(text, status: status)
  }
}
