import Hummingbird

/// The SSO session cookie (`auth0`): `HttpOnly`, `Path=/`, and `SameSite`. Over https it is
/// `SameSite=None; Secure` as Auth0 sets it (silent authentication in an iframe needs it); over
/// plain http (the loopback mock) browsers refuse `None` without `Secure`, so it is `Lax`.
enum SessionCookie {
  /// A cookie that carries the session `id`.
  static func make(_ id: String, tenant: MockTenant) -> Cookie {
    cookie(value: id, maxAge: nil, secure: isSecure(tenant))
  }

  /// The cookie that clears the session.
  static func cleared(tenant: MockTenant) -> Cookie {
    cookie(value: "", maxAge: 0, secure: isSecure(tenant))
  }

  private static func isSecure(_ tenant: MockTenant) -> Bool {
    tenant.baseURL.lowercased().hasPrefix("https://")
  }

  private static func cookie(value: String, maxAge: Int?, secure: Bool) -> Cookie {
    Cookie(
      name: AuthorizeRoutes.sessionCookie, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true,
      sameSite: secure ? .none : .lax)
  }
}
