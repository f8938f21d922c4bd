public import AuthFlowCore

/// A tenant as the running scenarios see it: where it is, its client and user profiles (values
/// already evaluated, secrets wrapped), and its capabilities.
public struct TenantContext: Sendable {
  public enum Kind: String, Sendable {
    case mock, auth0, oidc
  }

  /// The profile name (`mock`, `staging`, …).
  public var name: String
  public var kind: Kind
  /// The base URL with a trailing slash, e.g. `http://127.0.0.1:51234/` or `https://tenant.auth0.com/`.
  public var baseURL: String
  /// The expected `iss` of ID tokens.
  public var issuer: String
  public var clients: [String: Value]
  public var users: [String: Value]
  /// What the tenant can do (declared in the profile, discovered, or both).
  public var capabilities: Set<String>
  /// Where each capability came from ("declared in authflow.yaml", "discovery: grant_types_supported").
  public var capabilityEvidence: [String: String]
  /// Provider-specific settings from the profile (form field names, error statuses, …).
  public var settings: [String: Value]

  public init(
    name: String, kind: Kind, baseURL: String, issuer: String? = nil, clients: [String: Value] = [:],
    users: [String: Value] = [:], capabilities: Set<String> = [], capabilityEvidence: [String: String] = [:],
    settings: [String: Value] = [:]
  ) {
    self.name = name
    self.kind = kind
    self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
    self.issuer = issuer ?? self.baseURL
    self.clients = clients
    self.users = users
    self.capabilities = capabilities
    self.capabilityEvidence = capabilityEvidence
    self.settings = settings
  }

  /// `tenant` in expressions.
  public var value: Value {
    .object([
      "name": .string(name),
      "kind": .string(kind.rawValue),
      "base_url": .string(baseURL),
      "issuer": .string(issuer),
      "clients": .object(clients),
      "users": .object(users),
      "capabilities": .array(capabilities.sorted().map(Value.string)),
      "settings": .object(settings),
    ])
  }

  /// The capabilities in `required` that the tenant lacks.
  public func missing(_ required: [String]) -> [String] {
    required.filter { !capabilities.contains($0) }
  }
}
