import AuthFlowJOSE
import Hummingbird

/// The one gate of every Universal Login form post — login and signup, the one-field identify
/// page, passwordless address and code, MFA code, the organization prompt and picker: the form is
/// read, the transaction its `state` names is found (each page says which transactions it can
/// finish), its `_csrf` field must be the transaction's, and the post must come from the browser
/// that began the transaction, from this tenant's own pages (``TransactionBinding``).
///
/// A page gets the form and its transaction only through here, so the checks cannot drift apart.
/// A refused post gets the Universal Login error page (400 unknown transaction, 403 CSRF or
/// binding) and leaves the transaction as it was.
enum GuardedFormPost {
  /// A post that passed every check, or the error page that refuses it.
  enum Outcome<Found> {
    /// The form, and what the page's lookup found for its `state` (the transaction, with whatever
    /// the page keeps beside it).
    case accepted(form: RequestParameters, found: Found)
    case refused(Response)

    /// The error page of a refused post (for `guard case .accepted … else { return outcome.refusal }`).
    var refusal: Response {
      if case .refused(let response) = self { return response }
      return GuardedFormPost.errorPage(.unknownTransaction, status: .badRequest)
    }
  }

  /// Checks a form post whose page finds `Found` for a `state` (`find`) and reads its transaction
  /// from it (`transaction`).
  static func check<Found>(
    _ request: Request, context: BasicRequestContext, tenant: MockTenant,
    find: (_ state: String?) async -> Found?, transaction: (Found) -> LoginTransaction
  ) async -> Outcome<Found> {
    let query = RequestParameters.query(of: request)
    guard let form = await RequestParameters.body(of: request, context: context),
      let found = await find(query.string("state") ?? form.string("state"))
    else { return .refused(errorPage(.unknownTransaction, status: .badRequest)) }
    let transaction = transaction(found)
    guard let csrf = form.string("_csrf"), RandomToken.constantTimeEquals(csrf, transaction.csrf) else {
      return .refused(errorPage(.invalidCSRF, status: .forbidden))
    }
    if let refusal = TransactionBinding.refusal(request, transaction: transaction, tenant: tenant) {
      return .refused(errorPage(refusal, status: .forbidden))
    }
    return .accepted(form: form, found: found)
  }

  /// Checks a form post whose page finds the transaction itself for a `state`.
  static func check(
    _ request: Request, context: BasicRequestContext, tenant: MockTenant,
    find: (_ state: String?) async -> LoginTransaction?
  ) async -> Outcome<LoginTransaction> {
    await check(request, context: context, tenant: tenant, find: find, transaction: { $0 })
  }

  /// The Universal Login error page.
  static func errorPage(_ error: AuthorizeError, status: HTTPResponse.Status) -> Response {
    Responses.html(LoginPages.error(code: error.code, description: error.description), status: status)
  }
}
