/// Where a tenant's endpoints are. Actions ask for "the token endpoint", never build it from the
/// base URL: on `mock` and `auth0` tenants they are Auth0's paths under the base URL; on `oidc`
/// tenants they come from the discovery document, and Auth0-only paths do not exist.
public struct TenantEndpoints: Sendable, Equatable {
  /// How the tenant lays out its endpoints.
  public enum Layout: String, Sendable {
    /// Auth0's paths under the base URL (`oauth/token`, `dbconnections/signup`, …).
    case auth0
    /// Only the endpoints a discovery document names.
    case discovered
  }

  public var layout: Layout
  /// The base URL with a trailing slash.
  public var base: String
  public var authorization: String?
  public var token: String?
  public var userinfo: String?
  public var revocation: String?
  /// OpenID Connect RP-initiated logout.
  public var endSession: String?
  /// Auth0's `/v2/logout` (the SDK's `clearSession`).
  public var auth0Logout: String?
  public var jwks: String?
  public var discovery: String

  /// Auth0's endpoints under `baseURL` (docs/protocol.md §2–§4).
  public static func auth0(baseURL: String) -> TenantEndpoints {
    let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
    return TenantEndpoints(
      layout: .auth0, base: base, authorization: base + "authorize", token: base + "oauth/token",
      userinfo: base + "userinfo", revocation: base + "oauth/revoke", endSession: base + "oidc/logout",
      auth0Logout: base + "v2/logout", jwks: base + ".well-known/jwks.json",
      discovery: base + ".well-known/openid-configuration")
  }

  /// The endpoints a discovery document names; nothing else.
  public static func discovered(_ metadata: ProviderMetadata, baseURL: String) -> TenantEndpoints {
    TenantEndpoints(
      layout: .discovered, base: baseURL.hasSuffix("/") ? baseURL : baseURL + "/",
      authorization: metadata.authorizationEndpoint, token: metadata.tokenEndpoint,
      userinfo: metadata.userinfoEndpoint, revocation: metadata.revocationEndpoint,
      endSession: metadata.endSessionEndpoint, auth0Logout: nil, jwks: metadata.jwksURI,
      discovery: ProviderMetadata.discoveryURL(issuer: metadata.issuer))
  }

  /// The standard endpoints, keyed by the Auth0 path actions name them by.
  private var standard: [String: (url: String?, member: String, capability: String)] {
    [
      "authorize": (authorization, "authorization_endpoint", "authorization_code"),
      "oauth/token": (token, "token_endpoint", "authorization_code"),
      "userinfo": (userinfo, "userinfo_endpoint", "userinfo"),
      "oauth/revoke": (revocation, "revocation_endpoint", "revocation"),
      "oidc/logout": (endSession, "end_session_endpoint", "logout"),
      ".well-known/jwks.json": (jwks, "jwks_uri", "discovery"),
      ".well-known/openid-configuration": (discovery, "issuer", "discovery"),
    ]
  }

  /// Auth0-only path prefixes, with the capability a scenario needing them `requires`.
  static let auth0Only: [(prefix: String, capability: String)] = [
    ("dbconnections/", "signup"), ("passwordless/", "passwordless"), ("mfa/", "mfa"), ("passkey/", "passkeys"),
    ("__mock/", "mock_control"), ("v2/logout", "logout"), ("api/v2/", "management_api"), ("me/", "my_account"),
    ("oauth/device/", "device_flow"), ("activate", "device_flow"), ("oidc/register", "dynamic_client_registration"),
    ("oauth/ro", "legacy_ro"), ("oauth/access_token", "legacy_ro"),
  ]

  /// The absolute URL of a tenant path as actions name it (`oauth/token`, `userinfo?x=1`); an
  /// absolute URL is returned as it is. On a discovered layout, standard paths map to the
  /// discovered endpoints, and other paths are unavailable.
  public func url(forPath path: String) -> Result<String, EndpointUnavailable> {
    if path.hasPrefix("http://") || path.hasPrefix("https://") { return .success(path) }
    let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
    guard layout == .discovered else { return .success(base + relative) }
    let (route, query) = Self.split(relative)
    if let known = standard[route] {
      guard let url = known.url else {
        return .failure(EndpointUnavailable(path: route, member: known.member, capability: known.capability))
      }
      guard let query else { return .success(url) }
      return .success(url + (url.contains("?") ? "&" : "?") + query)
    }
    let capability = Self.auth0Only.first { route.hasPrefix($0.prefix) }?.capability
    return .failure(EndpointUnavailable(path: route, member: nil, capability: capability))
  }

  private static func split(_ path: String) -> (String, String?) {
    guard let mark = path.firstIndex(of: "?") else { return (path, nil) }
    return (String(path[..<mark]), String(path[path.index(after: mark)...]))
  }
}

/// A path the tenant has no endpoint for: an Auth0-only API on an `oidc` tenant, or a standard
/// endpoint its discovery document does not name.
public struct EndpointUnavailable: Error, Sendable, Equatable {
  /// The Auth0 path the action asked for.
  public var path: String
  /// The discovery member that would have named it (`revocation_endpoint`), for standard paths.
  public var member: String?
  /// The capability a scenario needing it should `require`.
  public var capability: String?

  public init(path: String, member: String?, capability: String?) {
    self.path = path
    self.member = member
    self.capability = capability
  }

  /// The message of the flow error.
  public func message(tenant: String) -> String {
    let requirement =
      capability.map { " (capability '\($0)'; a scenario that needs it should `requires: [\($0)]`)" } ?? ""
    if let member {
      return "tenant '\(tenant)' has no endpoint for `\(path)`: its discovery document names no `\(member)`"
        + requirement
    }
    return "tenant '\(tenant)' has no endpoint for `\(path)`: it is an Auth0 API, and an `oidc` tenant has only "
      + "the endpoints its discovery document names" + requirement
  }
}
