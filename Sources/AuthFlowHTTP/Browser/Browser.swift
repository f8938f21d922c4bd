public import AuthFlowCore
public import Foundation

/// A user agent: a cookie jar and redirect following, over any transport.
///
/// Following a redirect chain stops — without fetching — at a `Location` whose scheme is not
/// http(s), or which starts with a registered callback prefix (the app's `redirect_uri`): that is
/// how an OAuth callback is captured.
///
/// An actor because steps that share a browser by name share its cookie jar.
public actor Browser {
  /// The most redirects followed in one navigation.
  public static let maxRedirects = 20

  public nonisolated let name: String
  private let transport: any HTTPTransport
  private let now: @Sendable () -> Date
  private var jar = CookieJar()
  private var callbackPrefixes: [String]
  /// Sent with every request that does not set them itself.
  public private(set) var defaultHeaders: HTTPHeaderFields

  /// - Parameters:
  ///   - callbackPrefixes: redirect targets to stop at (the clients' `redirect_uri`s).
  ///   - now: the clock cookie expiry is judged by (tests and the mock's virtual clock inject one).
  public init(
    name: String = "default", transport: any HTTPTransport, callbackPrefixes: [String] = [],
    defaultHeaders: HTTPHeaderFields = Browser.standardHeaders, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.name = name
    self.transport = transport
    self.callbackPrefixes = callbackPrefixes
    self.defaultHeaders = defaultHeaders
    self.now = now
  }

  /// A browser-like `User-Agent` and `Accept`.
  public static let standardHeaders: HTTPHeaderFields = [
    "User-Agent": "authflow/1.0",
    "Accept": "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8",
  ]

  /// Adds a redirect target prefix to stop at.
  public func registerCallback(prefix: String) {
    if !callbackPrefixes.contains(prefix) { callbackPrefixes.append(prefix) }
  }

  /// Sends a request with the jar's cookies, stores the cookies of every response, and follows
  /// redirects (301/302/303/307/308; 303, and 301/302 after a POST, become GET) unless told not to.
  public func send(
    _ request: HTTPRequest, followRedirects: Bool = true
  ) async throws(TransportError)
    -> BrowserResponse
  {
    var current = request
    var visited: [String] = []
    while true {
      let response = try await fetch(current)
      visited.append(current.url)
      guard followRedirects, response.isRedirect, let location = response.location else {
        return BrowserResponse(response: response, visited: visited)
      }
      if isCallback(location) {
        return BrowserResponse(response: response, visited: visited, callbackURL: location)
      }
      guard visited.count <= Self.maxRedirects else {
        throw .tooManyRedirects(request.url, hops: Self.maxRedirects)
      }
      current = Self.redirected(current, status: response.status, to: location)
    }
  }

  /// A GET of `url`.
  public func get(_ url: String, followRedirects: Bool = true) async throws(TransportError) -> BrowserResponse {
    try await send(HTTPRequest(method: .get, url: url), followRedirects: followRedirects)
  }

  /// Every unexpired cookie in the jar.
  public var cookies: [Cookie] {
    jar.all.filter { !$0.isExpired(at: now()) }
  }

  /// The cookies that would be sent to `url`.
  public func cookies(for url: String) -> [Cookie] {
    jar.cookies(for: url, now: now())
  }

  /// The jar's cookies as a step result (`cookies`): name → cookie, values secret.
  public var cookiesValue: Value {
    .object(Dictionary(cookies.map { ($0.name, $0.resultValue) }, uniquingKeysWith: { _, last in last }))
  }

  /// Stores a cookie directly (a test seeding a session).
  public func setCookie(_ cookie: Cookie) {
    jar.store(cookie, now: now())
  }

  /// Forgets every cookie (a fresh session).
  public func clearCookies() {
    jar.removeAll()
  }

  private func fetch(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    var outgoing = request
    for field in defaultHeaders where !outgoing.headers.contains(field.name) {
      outgoing.headers.add(name: field.name, value: field.value)
    }
    let moment = now()
    jar.removeExpired(now: moment)
    if let cookieHeader = jar.cookieHeader(for: request.url, now: moment) {
      outgoing.headers["Cookie"] = outgoing.headers["Cookie"].map { "\($0); \(cookieHeader)" } ?? cookieHeader
    }
    let response = try await transport.send(outgoing)
    jar.receive(setCookie: response.headers.values(for: "Set-Cookie"), from: request.url, now: now())
    return response
  }

  private func isCallback(_ location: String) -> Bool {
    guard let scheme = URLParts.scheme(of: location), scheme == "http" || scheme == "https" else { return true }
    return callbackPrefixes.contains { location.hasPrefix($0) }
  }

  /// The request for the next hop: 303 (and 301/302 after a POST) becomes a GET without a body;
  /// 307/308 repeat the method and body. Credentials do not follow a change of origin.
  static func redirected(_ request: HTTPRequest, status: Int, to location: String) -> HTTPRequest {
    var next = request
    next.url = location
    let becomesGet =
      (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post)
    if becomesGet {
      next.method = .get
      next.body = []
      for name in ["Content-Type", "Content-Length", "Content-Encoding", "Origin"] {
        next.headers.remove(name)
      }
    }
    if URLParts(request.url)?.origin != URLParts(location)?.origin {
      next.headers.remove("Authorization")
    }
    next.headers.remove("Cookie")
    return next
  }
}
