public import AuthFlowCore

extension TenantEndpoints {
  /// The members of `settings.endpoints` a profile may set.
  static let overridable = ["authorization", "token", "userinfo", "revocation", "end_session", "jwks"]

  /// These endpoints with the ones a tenant profile names in `settings.endpoints`
  /// (`{ revocation: http://127.0.0.1:8100/o/revoke_token/ }`), for a provider that serves an
  /// endpoint its discovery document leaves out: django-oauth-toolkit serves RFC 7009 revocation
  /// but lists no `revocation_endpoint`. A relative value is resolved against the base URL;
  /// members that are not strings, or not endpoint names, are ignored.
  public func overriding(with settings: [String: Value]) -> TenantEndpoints {
    guard let named = settings["endpoints"]?.objectValue else { return self }
    var endpoints = self
    for name in Self.overridable {
      guard let url = named[name]?.stringValue, !url.isEmpty else { continue }
      let relative = url.hasPrefix("/") ? String(url.dropFirst()) : url
      let absolute = url.hasPrefix("http://") || url.hasPrefix("https://") ? url : base + relative
      switch name {
      case "authorization": endpoints.authorization = absolute
      case "token": endpoints.token = absolute
      case "userinfo": endpoints.userinfo = absolute
      case "revocation": endpoints.revocation = absolute
      case "end_session": endpoints.endSession = absolute
      default: endpoints.jwks = absolute
      }
    }
    return endpoints
  }
}
