public import Foundation

/// The cookies of one browser: stored from `Set-Cookie`, sent back as `Cookie` (a subset of
/// RFC 6265: domain and path matching, host-only cookies, `Secure`, `Max-Age`/`Expires`).
///
/// `Secure` cookies are sent over https, and to loopback hosts, which browsers treat as a secure
/// context. `HttpOnly` and `SameSite` are recorded but do not change what is sent.
///
/// Bounded as browsers bound it (RFC 6265 §6.1 gives the floors): a cookie whose name and value
/// exceed ``maxCookieBytes`` is ignored, and past ``maxPerDomain`` cookies for one domain or
/// ``maxTotal`` in all the least recently set goes first — so a tenant that sets new cookies on
/// every answer cannot grow a run's memory, or the `Cookie` header it sends, without end.
public struct CookieJar: Sendable, Hashable {
  /// The longest name and value a cookie may have together (RFC 6265 §6.1's floor; Chrome's limit).
  public static let maxCookieBytes = 4096
  /// The cookies kept for one domain (Chrome's 180; RFC 6265's floor is 50).
  public static let maxPerDomain = 180
  /// The cookies kept in all (RFC 6265 §6.1's floor, and Chrome's limit).
  public static let maxTotal = 3000

  /// Stored cookies, least recently set first; may hold expired ones until `removeExpired`.
  public private(set) var all: [Cookie] = []

  public init() {}

  /// Stores the cookies a response from `url` sets; an expired one deletes its namesake.
  public mutating func receive(setCookie headers: [String], from url: String, now: Date) {
    guard let parts = URLParts(url), parts.isHTTP else { return }
    for header in headers {
      guard let cookie = SetCookieParser.parse(header, from: parts, now: now) else { continue }
      store(cookie, now: now)
    }
  }

  /// Stores one cookie, replacing a cookie with the same name, domain and path (keeping its
  /// creation time); an expired cookie only deletes, and one past ``maxCookieBytes`` is ignored.
  public mutating func store(_ cookie: Cookie, now: Date) {
    guard cookie.name.utf8.count + cookie.value.utf8.count <= Self.maxCookieBytes else { return }
    defer { evictPastTheLimits(domain: cookie.domain) }
    var incoming = cookie
    if let existing = all.firstIndex(where: {
      $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
    }) {
      incoming.created = all[existing].created
      all.remove(at: existing)
    }
    if !incoming.isExpired(at: now) { all.append(incoming) }
  }

  /// Drops the least recently set cookies of `domain` past ``maxPerDomain``, then any past
  /// ``maxTotal``.
  private mutating func evictPastTheLimits(domain: String) {
    var inDomain = all.count { $0.domain == domain }
    while inDomain > Self.maxPerDomain, let oldest = all.firstIndex(where: { $0.domain == domain }) {
      all.remove(at: oldest)
      inDomain -= 1
    }
    if all.count > Self.maxTotal { all.removeFirst(all.count - Self.maxTotal) }
  }

  /// The cookies to send to `url`, longest path first, then oldest first.
  public func cookies(for url: String, now: Date) -> [Cookie] {
    guard let parts = URLParts(url), parts.isHTTP else { return [] }
    return
      all
      .filter { cookie in
        !cookie.isExpired(at: now)
          && (cookie.hostOnly
            ? parts.host == cookie.domain : CookieMatching.domainMatches(host: parts.host, domain: cookie.domain))
          && CookieMatching.pathMatches(requestPath: parts.path, cookiePath: cookie.path)
          && (!cookie.secure || parts.isSecureContext)
      }
      .sorted { $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created }
  }

  /// The `Cookie` header for `url`, or nil when no cookie applies.
  public func cookieHeader(for url: String, now: Date) -> String? {
    let matching = cookies(for: url, now: now)
    guard !matching.isEmpty else { return nil }
    return matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// Drops cookies whose expiry has passed.
  public mutating func removeExpired(now: Date) {
    all.removeAll { $0.isExpired(at: now) }
  }

  public mutating func removeAll() {
    all.removeAll()
  }
}
