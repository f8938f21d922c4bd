import AuthFlowCore
import Hummingbird

/// API rate limiting (docs/protocol.md §9) on the Authentication API: a fixed window (a minute, or the
/// fixture's `rate_limit_window` seconds) on the
/// virtual clock per client IP and path. Every response carries `X-RateLimit-Limit`,
/// `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds); past the limit the answer is
/// 429 `too_many_requests` (no `Retry-After`: UNCONFIRMED on Auth0, docs/protocol.md §9).
/// The limit is the tenant's `rate_limit_per_minute`, or
/// `defaultLimit` when the fixture sets none.
struct RateLimitMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let tenant: MockTenant

  static let defaultLimit = 1000
  /// The Authentication API: what is limited and carries the headers.
  static let prefixes = [
    "/oauth/", "/dbconnections/", "/passwordless/", "/userinfo", "/mfa/", "/passkey/", "/otp/", "/co/",
  ]

  static let tooManyRequests = OAuthError(
    status: .tooManyRequests, code: "too_many_requests",
    description:
      "Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.")

  static func applies(to path: String) -> Bool { prefixes.contains { path.hasPrefix($0) } }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    guard Self.applies(to: path) else { return try await next(request, context) }
    let limit = tenant.fixture.settings.rateLimitPerMinute ?? Self.defaultLimit
    let key = RequestParameters.clientIP(of: request) + " " + path
    let length = Double(tenant.fixture.settings.rateLimitWindow)
    let now = tenant.clock.seconds
    let window = tenant.transact { $0.countRequest(key, now: now, windowLength: length) }
    var response: Response
    if window.count > limit {
      response = Self.tooManyRequests.response
    } else {
      response = try await next(request, context)
    }
    Self.set("X-RateLimit-Limit", String(limit), on: &response.headers)
    Self.set("X-RateLimit-Remaining", String(max(0, limit - window.count)), on: &response.headers)
    Self.set("X-RateLimit-Reset", String(Int((window.start + length).rounded(.up))), on: &response.headers)
    return response
  }

  static func set(_ name: String, _ value: String, on headers: inout HTTPFields) {
    guard let field = HTTPFields.Element.Name(name) else { return }
    headers[field] = value
  }
}
