public import AuthFlowCore
public import Foundation

/// A cookie as the jar stores it (RFC 6265 §5.3).
public struct Cookie: Sendable, Hashable {
  public var name: String
  public var value: String
  /// Lowercased, without a leading dot.
  public var domain: String
  public var path: String
  /// Sent only to exactly `domain` (no `Domain` attribute was given).
  public var hostOnly: Bool
  public var secure: Bool
  public var httpOnly: Bool
  /// Nil for a session cookie.
  public var expires: Date?
  public var sameSite: String?
  public var created: Date

  public init(
    name: String, value: String, domain: String, path: String = "/", hostOnly: Bool = true, secure: Bool = false,
    httpOnly: Bool = false, expires: Date? = nil, sameSite: String? = nil, created: Date = Date()
  ) {
    self.name = name
    self.value = value
    self.domain = domain
    self.path = path
    self.hostOnly = hostOnly
    self.secure = secure
    self.httpOnly = httpOnly
    self.expires = expires
    self.sameSite = sameSite
    self.created = created
  }

  /// True once `expires` has passed.
  public func isExpired(at now: Date) -> Bool {
    expires.map { $0 <= now } ?? false
  }

  /// The cookie as a step result: its value is a secret (session cookies are credentials).
  public var resultValue: Value {
    var members: [String: Value] = [
      "name": .string(name), "value": Value.string(value).asSecret, "domain": .string(domain), "path": .string(path),
      "secure": .bool(secure), "http_only": .bool(httpOnly), "host_only": .bool(hostOnly),
    ]
    if let expires { members["expires"] = .int(Int(expires.timeIntervalSince1970)) }
    if let sameSite { members["same_site"] = .string(sameSite) }
    return .object(members)
  }
}
