import AuthFlowJOSE
import Hummingbird

/// The one gate of every form post of the mock's pages — Universal Login's login and signup, the
/// one-field identify page, passwordless address and code, MFA code, the organization prompt and
/// picker, and the device flow's `/activate` forms: the form is read, the transaction its `state`
/// names is found (each page says which transactions it can finish), and its `_csrf` field must be
/// the transaction's. A Universal Login post must also come from the browser that began the
/// transaction, from this tenant's own pages (``TransactionBinding``).
///
/// A page gets the form and its transaction only through here, so the checks cannot drift apart.
/// A refused post gets the error page (400 unknown transaction, 403 CSRF or binding) and leaves the
/// transaction as it was.
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
      return AuthorizeError.unknownTransaction.page()
    }
  }

  /// Checks a Universal Login form post whose page finds `Found` for a `state` (`find`) and reads
  /// its transaction from it (`transaction`): the CSRF field, then the browser binding.
  static func check<Found>(
    _ request: Request, context: BasicRequestContext, tenant: MockTenant,
    find: (_ state: String?) async -> Found?, transaction: @escaping (Found) -> LoginTransaction
  ) async -> Outcome<Found> {
    let outcome = await checkCSRF(request, context: context, find: find, csrf: { transaction($0).csrf })
    guard case .accepted(_, let found) = outcome else { return outcome }
    if let refusal = TransactionBinding.refusal(request, transaction: transaction(found), tenant: tenant) {
      return .refused(refusal.page(status: .forbidden))
    }
    return outcome
  }

  /// Checks a Universal Login form post whose page finds the transaction itself for a `state`.
  static func check(
    _ request: Request, context: BasicRequestContext, tenant: MockTenant,
    find: (_ state: String?) async -> LoginTransaction?
  ) async -> Outcome<LoginTransaction> {
    await check(request, context: context, tenant: tenant, find: find, transaction: { $0 })
  }

  /// The checks every form post passes: the form is read, `find` finds what its `state` (query or
  /// form) names — else `unknown` (400) — and its `_csrf` field is `csrf` of it — else
  /// `invalidCSRF` (403).
  static func checkCSRF<Found>(
    _ request: Request, context: BasicRequestContext, find: (_ state: String?) async -> Found?,
    csrf: (Found) -> String, unknown: AuthorizeError = .unknownTransaction,
    invalidCSRF: AuthorizeError = .invalidCSRF
  ) async -> Outcome<Found> {
    let query = RequestParameters.query(of: request)
    guard let form = await RequestParameters.body(of: request, context: context),
      let found = await find(query.string("state") ?? form.string("state"))
    else { return .refused(unknown.page()) }
    guard let given = form.string("_csrf"), RandomToken.constantTimeEquals(given, csrf(found)) else {
      return .refused(invalidCSRF.page(status: .forbidden))
    }
    return .accepted(form: form, found: found)
  }
}
