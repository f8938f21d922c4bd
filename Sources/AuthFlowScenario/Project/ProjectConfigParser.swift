public import AuthFlowCore
public import AuthFlowYAML

/// Reads `authflow.yaml` into a `ProjectConfig` with the same located diagnostics as scenarios:
/// unknown keys and kinds with "did you mean", the settings each kind requires, and a
/// `default_tenant` that names no tenant.
public struct ProjectConfigParser: Sendable {
  public init() {}

  /// The keys of `authflow.yaml`.
  public static let topLevelKeys = ["default_tenant", "tenants", "monitor"]
  /// The keys of a tenant.
  public static let tenantKeys = [
    "kind", "fixture", "domain", "issuer", "clients", "users", "capabilities", "custom_capabilities", "forms",
    "login_pages", "password_grant_returns_id_token", "error_statuses", "settings", "browser", "rate_limit",
    "inbox",
  ]

  /// Parses YAML text; the config is nil only when the text is not YAML or not a mapping.
  public func parse(_ text: String, file: String) -> (config: ProjectConfig?, diagnostics: [Diagnostic]) {
    let (node, yamlDiagnostics) = YAMLLoader.load(text, file: file)
    guard let node else { return (nil, yamlDiagnostics) }
    let (config, diagnostics) = parse(node, file: file)
    return (config, yamlDiagnostics + diagnostics)
  }

  /// Parses a composed YAML tree.
  public func parse(_ node: YAMLNode, file: String) -> (config: ProjectConfig?, diagnostics: [Diagnostic]) {
    var context = ParseContext(file: file, catalog: nil)
    let config = context.projectConfig(node)
    return (config, context.diagnostics)
  }
}

extension ParseContext {
  mutating func projectConfig(_ node: YAMLNode) -> ProjectConfig? {
    guard let pairs = mapping(node, for: nil, expected: "a mapping with 'tenants:'") else { return nil }
    let keys = knownPairs(pairs, allowed: ProjectConfigParser.topLevelKeys, in: "authflow.yaml")
    var config = ProjectConfig(file: file)
    config.defaultTenant = keys["default_tenant"].flatMap { string($0.value, for: "default_tenant") }
    if let tenants = keys["tenants"], let tenantPairs = mapping(tenants.value, for: "tenants") {
      for (name, pair) in keyedPairs(tenantPairs) {
        if let tenant = tenant(pair.value, name: name) { config.tenants.append(tenant) }
      }
    }
    if let monitor = keys["monitor"] { config.monitor = self.monitor(monitor.value) }
    checkCapabilityNames(config)
    if let name = config.defaultTenant, config.tenant(named: name.value) == nil {
      report(.unknownTenant(name, hint: Suggestion.hint(for: name.value, in: config.tenants.map(\.name.value))))
    }
    return config
  }

  mutating func tenant(_ node: YAMLNode, name: Located<String>) -> TenantProfile? {
    guard let pairs = mapping(node, for: "tenant '\(name.value)'") else { return nil }
    let keys = knownPairs(pairs, allowed: ProjectConfigParser.tenantKeys, in: "tenant '\(name.value)'")
    guard let kindPair = keys["kind"] else {
      report(.missingTenantKind(name))
      return nil
    }
    guard let kindText = string(kindPair.value, for: "kind") else { return nil }
    guard let kind = TenantProfile.Kind(rawValue: kindText.value) else {
      report(.unknownTenantKind(kindText))
      return nil
    }
    var tenant = TenantProfile(name: name, kind: kind, location: name.location)
    tenant.fixture = keys["fixture"].map { template($0.value) }
    tenant.domain = keys["domain"].map { template($0.value) }
    tenant.issuer = keys["issuer"].map { template($0.value) }
    tenant.clients = keys["clients"].map { profiles($0.value, for: "clients") } ?? []
    tenant.users = keys["users"].map { profiles($0.value, for: "users") } ?? []
    tenant.capabilities = keys["capabilities"].flatMap { stringList($0.value, for: "capabilities") } ?? []
    tenant.customCapabilities =
      keys["custom_capabilities"].flatMap { stringList($0.value, for: "custom_capabilities") } ?? []
    tenant.forms = keys["forms"].map { scalarMap($0.value, for: "forms", expected: "a field name") } ?? []
    tenant.loginPages = keys["login_pages"].flatMap { loginPages($0.value) }
    tenant.errorStatuses =
      keys["error_statuses"].map { scalarMap($0.value, for: "error_statuses", expected: "an HTTP status") } ?? []
    tenant.settings = keys["settings"].flatMap { pair in
      mapping(pair.value, for: "settings").map { _ in template(pair.value) }
    }
    if let flag = keys["password_grant_returns_id_token"]?.value {
      if case .bool(let value)? = flag.scalar?.value {
        tenant.passwordGrantReturnsIDToken = value
      } else {
        report(.wrongType(expected: "true or false", found: flag, for: "password_grant_returns_id_token"))
      }
    }
    if let pair = keys["browser"], let text = string(pair.value, for: "browser") {
      if let engine = BrowserEngine(rawValue: text.value) {
        tenant.browser = Located(engine, at: text.location)
      } else {
        report(.unknownBrowserEngine(text))
      }
    }
    tenant.requestsPerMinute = keys["rate_limit"].flatMap { rateLimit($0.value) }
    tenant.inbox = keys["inbox"].flatMap { inbox($0.value) }
    checkKindSettings(tenant, keys: keys)
    checkClientAuthentication(tenant)
    return tenant
  }

  /// Each tenant's `capabilities` must be in the vocabulary (built-in or some tenant's
  /// `custom_capabilities`); a custom name that is already built in is a warning.
  private mutating func checkCapabilityNames(_ config: ProjectConfig) {
    let known = config.capabilityNames
    for tenant in config.tenants {
      for name in tenant.capabilities where !known.contains(name.value) {
        report(.unknownCapability(name, hint: Suggestion.hint(for: name.value, in: known.sorted())))
      }
      for name in tenant.customCapabilities where CapabilityVocabulary.builtInNames.contains(name.value) {
        report(.customCapabilityIsBuiltIn(name))
      }
    }
  }

  /// Each kind's required setting, the settings it ignores, and client ids for real tenants.
  private mutating func checkKindSettings(_ tenant: TenantProfile, keys: [String: YAMLPair]) {
    let required: [TenantProfile.Kind: String] = [.auth0: "domain", .oidc: "issuer"]
    if let key = required[tenant.kind], keys[key] == nil {
      report(.missingTenantSetting(key, tenant: tenant.name, kind: tenant.kind))
    }
    let owner: [String: TenantProfile.Kind] = ["fixture": .mock, "domain": .auth0, "issuer": .oidc]
    for (key, kind) in owner.sorted(by: { $0.key < $1.key }) where kind != tenant.kind {
      if let pair = keys[key], let keyLocation = pair.key.scalar?.location {
        report(.ignoredTenantSetting(key, kind: tenant.kind, at: keyLocation))
      }
    }
    guard tenant.kind != .mock else { return }
    for client in tenant.clients where client.value.member("client_id") == nil {
      report(.missingClientID(client.name, tenant: tenant.name.value))
    }
  }

  /// A client's `token_endpoint_auth_method`, when written literally, must be one authflow can
  /// send (an expression is checked when the tenant is used).
  private mutating func checkClientAuthentication(_ tenant: TenantProfile) {
    for client in tenant.clients {
      guard let template = client.value.member(ClientAuthenticationMethod.profileKey) else { continue }
      guard case .literal(let value, let location) = template else { continue }
      guard let text = value.stringValue, ClientAuthenticationMethod(rawValue: text) != nil else {
        report(.unknownClientAuthenticationMethod(value, at: location, client: client.name.value))
        continue
      }
    }
  }

  /// `name: { … }` profiles (clients, users): each value a mapping.
  private mutating func profiles(_ node: YAMLNode, for key: String) -> [Binding] {
    guard let pairs = mapping(node, for: key) else { return [] }
    var profiles: [Binding] = []
    for (name, pair) in keyedPairs(pairs) {
      guard case .mapping = pair.value else {
        report(.wrongType(expected: "a mapping", found: pair.value, for: "\(key).\(name.value)"))
        continue
      }
      profiles.append(Binding(name: name, value: template(pair.value)))
    }
    return profiles
  }

  /// `name: scalar` pairs (forms, error_statuses).
  private mutating func scalarMap(_ node: YAMLNode, for key: String, expected: String) -> [Binding] {
    guard let pairs = mapping(node, for: key) else { return [] }
    var bindings: [Binding] = []
    for (name, pair) in keyedPairs(pairs) {
      guard pair.value.scalar != nil, !pair.value.isNull else {
        report(.wrongType(expected: expected, found: pair.value, for: "\(key).\(name.value)"))
        continue
      }
      bindings.append(Binding(name: name, value: template(pair.value)))
    }
    return bindings
  }
}
