import Foundation

/// Parses one `Set-Cookie` header received from `url` into a cookie (RFC 6265 §5.2–5.3), or nil
/// when the user agent must ignore it.
enum SetCookieParser {
  static func parse(_ header: String, from url: URLParts, now: Date) -> Cookie? {
    let parts = header.split(separator: ";", omittingEmptySubsequences: false)
    guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
    let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
    let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { return nil }

    var cookie = Cookie(name: name, value: value, domain: url.host, path: defaultPath(url.path), created: now)
    var maxAgeSeen = false
    for attribute in parts.dropFirst() {
      let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let key = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
      let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
      switch key {
      case "expires":
        if !maxAgeSeen, let date = HTTPDate.parse(argument) { cookie.expires = date }
      case "max-age":
        guard let seconds = Int(argument) else { continue }
        maxAgeSeen = true
        cookie.expires = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(TimeInterval(seconds))
      case "domain":
        var domain = argument.lowercased()
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty else { continue }
        guard CookieMatching.domainMatches(host: url.host, domain: domain) else { return nil }
        cookie.domain = domain
        cookie.hostOnly = false
      case "path":
        if argument.hasPrefix("/") { cookie.path = argument }
      case "secure":
        cookie.secure = true
      case "httponly":
        cookie.httpOnly = true
      case "samesite":
        cookie.sameSite = argument
      default:
        continue
      }
    }
    return cookie
  }

  /// The directory of the request path (RFC 6265 §5.1.4).
  static func defaultPath(_ path: String) -> String {
    guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }
}

/// Domain and path matching (RFC 6265 §5.1.3, §5.1.4).
enum CookieMatching {
  static func domainMatches(host: String, domain: String) -> Bool {
    if host == domain { return true }
    guard host.hasSuffix("." + domain) else { return false }
    return !isIPAddress(host)
  }

  static func pathMatches(requestPath: String, cookiePath: String) -> Bool {
    if requestPath == cookiePath { return true }
    guard requestPath.hasPrefix(cookiePath) else { return false }
    if cookiePath.hasSuffix("/") { return true }
    return requestPath.dropFirst(cookiePath.count).first == "/"
  }

  private static func isIPAddress(_ host: String) -> Bool {
    host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
  }
}
