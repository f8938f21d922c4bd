public import AuthFlowCore
public import AuthFlowScenario

/// The provider differences every tenant of a kind has, as `tenant.settings` defaults: what Auth0
/// (and so the mock, which answers as Auth0 does) sends where the standards fix something else.
/// A tenant profile's own `settings` override them, member by member.
public enum ProviderDefaults {
  /// Auth0 answers a failed client authentication at `/oauth/token` with
  /// 401 `access_denied` / `Unauthorized` (docs/protocol.md §3.7), where RFC 6749 §5.2 says `invalid_client`.
  static let auth0: [String: Value] = [
    "error_codes": .object(["invalid_client": .string("access_denied")])
  ]

  /// The default settings of a tenant kind; `oidc` tenants start from none.
  public static func settings(for kind: TenantProfile.Kind) -> [String: Value] {
    switch kind {
    case .mock, .auth0: return auth0
    case .oidc: return [:]
    }
  }

  /// `defaults` with `settings` laid over it: objects are merged one member at a time, anything
  /// else in `settings` replaces the default.
  public static func merge(_ settings: [String: Value], over defaults: [String: Value]) -> [String: Value] {
    var merged = defaults
    for (key, value) in settings {
      if let base = defaults[key]?.objectValue, let override = value.objectValue {
        merged[key] = .object(base.merging(override) { _, new in new })
      } else {
        merged[key] = value
      }
    }
    return merged
  }
}
