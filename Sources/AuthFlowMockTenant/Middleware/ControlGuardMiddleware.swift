import Foundation
import Hummingbird

/// Guards the test-control routes (`/__mock/*`) against DNS rebinding and cross-origin pages: they
/// need no credentials, so a request for them is refused (403) unless its `Host` names a loopback
/// host (`127.0.0.1`, `localhost`, `[::1]`) on the mock's port and any `Origin` it carries is a
/// loopback origin. `authflow mock --allow-remote-control` turns the guard off (docs/tenants.md,
/// "Test control").
struct ControlGuardMiddleware: RouterMiddleware {
  typealias Context = BasicRequestContext
  let tenant: MockTenant

  static let hostField = HTTPFields.Element.Name("Host")

  /// The names a loopback request addresses the mock by.
  static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]", "::1"]

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    guard path == "/__mock" || path.hasPrefix("/__mock/") else { return try await next(request, context) }
    // HTTP/1 puts `Host` in the authority; the in-process router test client leaves it a field.
    let host = request.head.authority ?? Self.hostField.flatMap { request.headers[$0] }
    if let host, !Self.isLoopback(authority: host, port: URLComponents(string: tenant.baseURL)?.port) {
      return Messages.foreignHost.response
    }
    if let origin = request.headers[.origin], !Self.isLoopback(origin: origin) {
      return Messages.foreignOrigin.response
    }
    return try await next(request, context)
  }

  /// Whether a `Host` value (`name[:port]`) names a loopback host, on `port` when the mock knows
  /// its port (a missing port is 80).
  static func isLoopback(authority: String, port: Int?) -> Bool {
    guard let parsed = URLComponents(string: "http://\(authority)"), let name = parsed.host?.lowercased(),
      parsed.user == nil, parsed.path.isEmpty, parsed.query == nil
    else { return false }
    guard loopbackHosts.contains(name) || loopbackHosts.contains("[\(name)]") else { return false }
    guard let port, port != 0 else { return true }
    return (parsed.port ?? 80) == port
  }

  /// Whether an `Origin` value is an `http`/`https` origin on a loopback host (`null` is not).
  static func isLoopback(origin: String) -> Bool {
    guard let parsed = URLComponents(string: origin), let scheme = parsed.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let name = parsed.host?.lowercased()
    else { return false }
    return loopbackHosts.contains(name) || loopbackHosts.contains("[\(name)]")
  }

  enum Messages {
    static let foreignHost = OAuthError(
      status: .forbidden, code: "access_denied",
      description:
        "The mock's control routes answer only requests addressed to a loopback host (127.0.0.1, localhost, [::1]) "
        + "on its port; start it with --allow-remote-control to lift this")
    static let foreignOrigin = OAuthError(
      status: .forbidden, code: "access_denied",
      description:
        "The mock's control routes refuse requests from a page on a non-loopback origin; "
        + "start it with --allow-remote-control to lift this")
  }
}
