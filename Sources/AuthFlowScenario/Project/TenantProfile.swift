public import AuthFlowCore
public import AuthFlowYAML

/// A tenant of `authflow.yaml` (docs/design.md §3): what kind of server it is, where it is, its client
/// and user profiles, its capabilities and the ways it differs from the mock.
///
/// Values may be templates (`${{ env.AUTH0_DOMAIN }}`), evaluated when the tenant is used, so a
/// profile can be validated without its secrets.
public struct TenantProfile: Sendable {
  /// The closed set of tenant kinds.
  public enum Kind: String, Sendable, CaseIterable, Hashable {
    /// The embedded mock tenant, optionally with a fixture file.
    case mock
    /// An Auth0 tenant, reached at `domain`.
    case auth0
    /// Any OpenID Provider, driven by the discovery document at `issuer`.
    case oidc
  }

  /// The tenant's key under `tenants:`, as `--tenant` names it.
  public var name: Located<String>
  public var kind: Kind
  /// `mock`: the fixture file, relative to `authflow.yaml`; the built-in fixture when nil.
  public var fixture: Template?
  /// `auth0`: the tenant's domain (`example.eu.auth0.com`).
  public var domain: Template?
  /// `oidc`: the issuer URL whose `/.well-known/openid-configuration` describes the provider.
  public var issuer: Template?
  /// Client profiles by name: objects with `client_id`, `client_secret`, `redirect_uri`, …
  public var clients: [Binding]
  /// User profiles by name: objects with `email`, `password`, …
  public var users: [Binding]
  /// Declared capabilities (`passwordless`, `organizations`, `refresh_token_rotation`, …).
  public var capabilities: [Located<String>]
  /// Capability names of this project's own (`custom_capabilities:`), outside the built-in
  /// vocabulary: they join the names every scenario may `require`, and this tenant has them.
  public var customCapabilities: [Located<String>] = []
  /// Universal Login form field names that differ from the mock's (`email` → `username`).
  public var forms: [Binding]
  /// How the provider's login pages are recognised and filled (`login_pages:`), where the
  /// built-in heuristics do not suffice.
  public var loginPages: LoginPagesProfile?
  /// The browser that drives `web_auth`'s login pages (`browser: chromium`); the built-in HTML
  /// driver when nil.
  public var browser: Located<BrowserEngine>?
  /// `rate_limit.requests_per_minute`: the pace requests to this tenant keep from the first one,
  /// before its `X-RateLimit-*` headers are learned (docs/running.md, "Rate limits").
  public var requestsPerMinute: Located<Int>?
  /// Where the messages the tenant sends are read (`inbox:`); the mock's outbox when nil on a
  /// mock tenant.
  public var inbox: InboxProfile?
  /// Whether the password grant returns an ID token (it does unless `openid` is dropped).
  public var passwordGrantReturnsIDToken: Bool?
  /// HTTP statuses the tenant answers with for given error codes, where they differ.
  public var errorStatuses: [Binding]
  /// Any other provider-specific settings, open.
  public var settings: Template?
  /// Where the tenant's key is.
  public var location: SourceLocation

  public init(
    name: Located<String>, kind: Kind, fixture: Template? = nil, domain: Template? = nil, issuer: Template? = nil,
    clients: [Binding] = [], users: [Binding] = [], capabilities: [Located<String>] = [], forms: [Binding] = [],
    passwordGrantReturnsIDToken: Bool? = nil, errorStatuses: [Binding] = [], settings: Template? = nil,
    location: SourceLocation
  ) {
    self.name = name
    self.kind = kind
    self.fixture = fixture
    self.domain = domain
    self.issuer = issuer
    self.clients = clients
    self.users = users
    self.capabilities = capabilities
    self.forms = forms
    self.passwordGrantReturnsIDToken = passwordGrantReturnsIDToken
    self.errorStatuses = errorStatuses
    self.settings = settings
    self.location = location
  }

  /// The client profile `name`.
  public func client(named name: String) -> Template? {
    clients.first { $0.name.value == name }?.value
  }

  /// The user profile `name`.
  public func user(named name: String) -> Template? {
    users.first { $0.name.value == name }?.value
  }

  /// True when the tenant declares `capability`.
  public func declares(_ capability: String) -> Bool {
    capabilities.contains { $0.value == capability } || customCapabilities.contains { $0.value == capability }
  }
}
