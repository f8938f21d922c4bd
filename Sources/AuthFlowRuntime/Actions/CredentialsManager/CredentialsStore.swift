import AuthFlowCore

/// The scenario's Credentials Manager storage (docs/protocol.md §3.3 and §3.4), as Auth0.swift keeps it: the
/// main credentials, and API credentials per audience. `credentials` in expressions reads it.
struct CredentialsStore: Sendable, Hashable {
  /// The members kept for the main credentials.
  static let mainKeys = [
    "access_token", "id_token", "refresh_token", "token_type", "expires_in", "expires_at", "scope",
  ]
  /// The members kept for API credentials.
  static let apiKeys = ["access_token", "token_type", "expires_in", "expires_at", "scope"]

  /// The stored main credentials, or nil when nothing is stored.
  var main: [String: Value]?
  /// API credentials by audience.
  var api: [String: [String: Value]] = [:]

  /// Stores new main credentials; a response without `refresh_token` keeps the stored one
  /// (non-rotating refresh, docs/protocol.md §3.3).
  mutating func store(_ credentials: [String: Value]) {
    var kept = credentials.filter { Self.mainKeys.contains($0.key) && !$0.value.isNull }
    if kept["refresh_token"] == nil, let previous = main?["refresh_token"] { kept["refresh_token"] = previous }
    main = kept
  }

  /// Stores API credentials for `audience`, and replaces the main ID and refresh tokens when the
  /// response carries new ones (Auth0.swift's `apiCredentials`).
  mutating func storeAPI(_ credentials: [String: Value], audience: String) {
    api[audience] = credentials.filter { Self.apiKeys.contains($0.key) && !$0.value.isNull }
    guard var current = main else { return }
    for key in ["id_token", "refresh_token"] {
      if let value = credentials[key], !value.isNull { current[key] = value }
    }
    main = current
  }

  /// Replaces the main refresh and ID tokens after an SSO exchange.
  mutating func rotate(refreshToken: Value?, idToken: Value?) {
    guard var current = main else { return }
    if let refreshToken, !refreshToken.isNull { current["refresh_token"] = refreshToken }
    if let idToken, !idToken.isNull { current["id_token"] = idToken }
    main = current
  }

  mutating func clear() {
    main = nil
    api = [:]
  }

  /// `credentials` in expressions: the main members, `api` by audience, and `stored`.
  var value: Value {
    var members = main ?? [:]
    members["stored"] = .bool(main != nil)
    members["api"] = .object(api.mapValues(Value.object))
    return .object(members)
  }
}
