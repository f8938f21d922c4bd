public import AuthFlowCore
public import AuthFlowJOSE

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
  /// Where the endpoints are: Auth0's paths for `mock`/`auth0`, the discovery document's for `oidc`.
  public var endpoints: TenantEndpoints
  /// The discovery document, when it was read (`oidc` and `auth0` tenants).
  public var provider: ProviderMetadata?
  /// For discoverable capabilities the tenant lacks: what was looked at
  /// ("discovery: code_challenge_methods_supported lacks S256").
  public var capabilityAbsence: [String: String]
  /// Where capabilities were looked for, in order ("capabilities: in authflow.yaml", "discovery …").
  public var capabilitySources: [String]
  /// How the tenant's login pages are recognised and filled (`login_pages:`, `forms:`).
  public var loginPages = LoginPageProfile()
  /// Where the messages it sends are read (`inbox:`; the mock's outbox); nil: none can be.
  public var inbox: TenantInbox?

  public init(
    name: String, kind: Kind, baseURL: String, issuer: String? = nil, clients: [String: Value] = [:],
    users: [String: Value] = [:], capabilities: Set<String> = [], capabilityEvidence: [String: String] = [:],
    settings: [String: Value] = [:], endpoints: TenantEndpoints? = nil, provider: ProviderMetadata? = nil,
    capabilityAbsence: [String: String] = [:], capabilitySources: [String] = []
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
    self.endpoints = endpoints ?? .auth0(baseURL: self.baseURL)
    self.provider = provider
    self.capabilityAbsence = capabilityAbsence
    self.capabilitySources = capabilitySources
  }

  /// The algorithms this tenant's ID tokens may be signed with: nil on `mock` and `auth0` tenants,
  /// whose tokens follow Auth0.swift's rules (RS256, with a `kid`, docs/protocol.md §5); on an `oidc`
  /// tenant those its discovery document lists in `id_token_signing_alg_values_supported` (RS256
  /// when it lists none, OIDC Core §3.1.3.7), `none` never, with a `kid` optional where one JWKS
  /// key fits (OIDC Core §10.1).
  public var idTokenAlgorithms: Set<JWSAlgorithm>? {
    guard kind == .oidc else { return nil }
    let listed = provider?.idTokenSigningAlgValuesSupported ?? [JWSAlgorithm.rs256.rawValue]
    return Set(listed.compactMap(JWSAlgorithm.init(rawValue:)).filter { $0 != .none })
  }

  /// How requests to the token and revocation endpoints are encoded: JSON as Auth0.swift sends
  /// them (docs/protocol.md §1) on `mock` and `auth0` tenants, `application/x-www-form-urlencoded` as
  /// RFC 6749 fixes it on `oidc` tenants.
  public var wireFormat: WireFormat { kind == .oidc ? .form : .json }

  /// Whether requests carry Auth0's telemetry, the `Auth0-Client` header and the `auth0Client`
  /// parameter of `/authorize` (docs/protocol.md §11): to `auth0` tenants and the mock, which plays one;
  /// never to an `oidc` provider, to which they mean nothing and would tell what client it is.
  public var sendsAuth0Telemetry: Bool { kind != .oidc }

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
      "endpoints": endpoints.value,
      "inbox": inbox.map { inbox in .object(["address": inbox.address.map(Value.string) ?? .null]) } ?? .null,
    ])
  }

  /// The capabilities in `required` that the tenant lacks.
  public func missing(_ required: [String]) -> [String] {
    required.filter { !capabilities.contains($0) }
  }

  /// Where `capability` was looked for and not found, for skip reasons: each source, a
  /// discovery source with what its document lacks ("code_challenge_methods_supported lacks S256").
  public func whereLookedFor(_ capability: String) -> String {
    let sources = capabilitySources.isEmpty ? ["the tenant profile's `capabilities`"] : capabilitySources
    return sources.map { source in
      guard source.hasPrefix("discovery ") else { return source }
      let prefix = "discovery: "
      guard let absence = capabilityAbsence[capability] else { return source + " (no discovery member shows it)" }
      return source + " (" + (absence.hasPrefix(prefix) ? String(absence.dropFirst(prefix.count)) : absence) + ")"
    }.joined(separator: "; ")
  }
}

/// How the token and revocation requests of a tenant are encoded.
public enum WireFormat: String, Sendable {
  /// `application/json`, client credentials in the body (Auth0.swift).
  case json
  /// `application/x-www-form-urlencoded`, client authentication per the client's method (RFC 6749).
  case form
}

extension TenantEndpoints {
  /// `tenant.endpoints` in expressions.
  var value: Value {
    var members: [String: Value] = ["discovery": .string(discovery)]
    let optional: [(String, String?)] = [
      ("authorization", authorization), ("token", token), ("userinfo", userinfo), ("revocation", revocation),
      ("end_session", endSession), ("logout", auth0Logout), ("jwks", jwks),
    ]
    for (name, url) in optional { members[name] = url.map(Value.string) ?? .null }
    return .object(members)
  }
}
