import AuthFlowJOSE
import Foundation
import Hummingbird

/// Binds a Universal Login transaction to the browser that began it, as Universal Login does with
/// its transaction cookie: `/authorize` (and every other start of a transaction) sets a cookie
/// named after the transaction whose value is a random binding stored with it, and every form post
/// of the transaction (login, signup, passwordless, MFA, organization) — and the social provider's
/// return to `/login/callback` — must carry it and must not come from a foreign `Origin`. A post from another cookie jar or another site gets the error page
/// "Invalid state" (403), and the transaction is left as it was (docs/tenants.md, "Login CSRF").
///
/// The cookie is `HttpOnly`, `Path=/u/`, `SameSite=Lax` (a cross-site form post does not carry it),
/// `Secure` over https, and lives as long as the transaction (one hour).
enum TransactionBinding {
  static let cookiePrefix = "auth0_tx_"
  static let lifetime = 3600

  /// The cookie name of the transaction `id`: a prefix of it, enough to tell transactions apart.
  static func cookieName(_ id: String) -> String { cookiePrefix + String(id.prefix(16)) }

  /// Where the social provider returns the browser (`SocialLoginRoutes`); the binding cookie is
  /// set for this path too, so the callback can only finish the transaction in the browser that
  /// began it.
  static let socialCallbackPath = "/login/callback"

  /// The cookie that binds `transaction` to the browser it is set in, sent back to `path`
  /// (Universal Login's pages, or the social callback).
  static func cookie(for transaction: LoginTransaction, tenant: MockTenant, path: String = "/u/") -> Cookie {
    let secure = tenant.baseURL.lowercased().hasPrefix("https://")
    return Cookie(
      name: cookieName(transaction.id), value: transaction.binding, maxAge: lifetime, path: path, secure: secure,
      httpOnly: true, sameSite: .lax)
  }

  /// The reason a form post of `transaction` is refused, or nil when it came from the browser that
  /// began the transaction, from this tenant's own pages.
  static func refusal(_ request: Request, transaction: LoginTransaction, tenant: MockTenant) -> AuthorizeError? {
    if let origin = request.headers[.origin], !isOwnOrigin(origin, request: request, tenant: tenant) {
      return Messages.foreignOrigin
    }
    guard let value = request.cookies[cookieName(transaction.id)]?.value,
      RandomToken.constantTimeEquals(value, transaction.binding)
    else { return Messages.invalidState }
    return nil
  }

  /// Whether `origin` is the tenant's own origin: the scheme and authority of its base URL, or of
  /// the `Host` the request was addressed to.
  static func isOwnOrigin(_ origin: String, request: Request, tenant: MockTenant) -> Bool {
    let normalized = origin.lowercased()
    if let base = URLComponents(string: tenant.baseURL), let scheme = base.scheme, let host = base.host {
      let authority = base.port.map { "\(host):\($0)" } ?? host
      if normalized == "\(scheme)://\(authority)".lowercased() { return true }
      if let scheme = base.scheme, let requested = request.head.authority,
        normalized == "\(scheme)://\(requested)".lowercased()
      {
        return true
      }
    }
    return false
  }

  enum Messages {
    /// The transaction cookie is missing or belongs to another transaction: the post did not come
    /// from the browser that began the login. Auth0's page reads "Invalid state" too.
    static let invalidState = AuthorizeError(
      code: "invalid_request",
      description:
        "Invalid state: this login was started in another browser, or its cookie is missing. Start the login again.")
    /// The form was posted by a page of another site.
    static let foreignOrigin = AuthorizeError(
      code: "invalid_request", description: "Invalid state: the form was posted from another site.")
  }
}
