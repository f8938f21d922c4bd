public import AuthFlowCore
import AuthFlowExpression
public import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// A tenant ready for scenarios: its context, and the embedded mock server when it is one.
public struct ResolvedTenant: Sendable {
  public var context: TenantContext
  let mock: (any EmbeddedTenant)?
  /// The SMTP receiver started for this tenant's `inbox.smtp`, stopped with it.
  var receiver: (any RunningInboxReceiver)? = nil
  /// The issuer the profile names (`oidc`) or implies (`auth0`: the domain's URL), before
  /// discovery; nil for the mock.
  public var configuredIssuer: String?

  /// The embedded mock this tenant runs on; nil for other tenants.
  public var embedded: (any EmbeddedTenant)? { mock }

  /// How many tokens the embedded mock has signed since it started; nil for other tenants.
  public var signaturesMade: Int? { mock?.signaturesMade }

  /// Stops the embedded mock and the inbox's receiver, if any.
  public func stop() async {
    await mock?.stop()
    await receiver?.stop()
  }
}

/// Why a tenant could not be prepared: a bad profile or fixture (exit 2), or a tenant that
/// could not be started or reached (exit 3).
public struct TenantResolutionError: Error, Sendable {
  public var diagnostics: [Diagnostic]
  public var message: String
  public var isEnvironment: Bool

  public init(diagnostics: [Diagnostic], message: String, isEnvironment: Bool) {
    self.diagnostics = diagnostics
    self.message = message
    self.isEnvironment = isEnvironment
  }
}

/// Turns a tenant profile into a running tenant: evaluates its `${{ env.X }}` values, starts the
/// embedded mock for `kind: mock`, and gathers clients, users and capabilities.
public struct TenantResolver: Sendable {
  /// What starts `kind: mock` tenants (injected by the executable; nil: no mock tenant can run).
  public var embedded: (any EmbeddedTenantHost)?
  /// What starts the SMTP receiver of an `inbox.smtp` (injected by the executable; nil: none can).
  public var inboxHost: (any InboxHost)?
  public var environment: [String: String]
  public var secrets: SecretRegistry
  /// The directory `authflow.yaml` is in: fixture paths are relative to it.
  public var projectDirectory: String

  /// The run's transport, for discovery documents (`oidc` and `auth0` tenants). Without one, a
  /// short-lived live transport is used.
  public var transport: (any HTTPTransport)?
  /// Whether a discovered issuer that differs from the configured one stops the resolution
  /// (`doctor` turns it off to report it with everything else).
  public var verifiesIssuer: Bool

  public init(
    embedded: (any EmbeddedTenantHost)? = nil, inboxHost: (any InboxHost)? = nil,
    environment: [String: String], secrets: SecretRegistry, projectDirectory: String,
    transport: (any HTTPTransport)? = nil, verifiesIssuer: Bool = true
  ) {
    self.embedded = embedded
    self.inboxHost = inboxHost
    self.environment = environment
    self.secrets = secrets
    self.projectDirectory = projectDirectory
    self.transport = transport
    self.verifiesIssuer = verifiesIssuer
  }

  public func resolve(_ profile: TenantProfile) async throws(TenantResolutionError) -> ResolvedTenant {
    let context = EvaluationContext(
      roots: ["env": .object(environment.mapValues(Value.string))], functions: Pipeline.functions)
    func evaluate(_ template: Template?) throws(TenantResolutionError) -> Value? {
      guard let template else { return nil }
      // An unset variable would read as null: a missing secret of the CI job, found here by name.
      let unset = template.requiredEnvironment.filter { environment[$0.name] == nil }
      if let first = unset.first {
        let diagnostics = unset.map { read in
          Diagnostic.error(
            TenantMessages.unsetVariable(read.name, tenant: profile.name.value), at: read.location, length: read.length,
            hint: TenantMessages.unsetVariableHint(read.name))
        }
        throw TenantResolutionError(
          diagnostics: diagnostics, message: TenantMessages.unset(first.name), isEnvironment: false)
      }
      do {
        return try template.evaluate(in: context)
      } catch {
        throw TenantResolutionError(
          diagnostics: [.error(error.message, at: error.location)], message: error.message, isEnvironment: false)
      }
    }
    var clients: [String: Value] = [:]
    for binding in profile.clients { clients[binding.name.value] = Self.markSecrets(try evaluate(binding.value)) }
    var users: [String: Value] = [:]
    for binding in profile.users { users[binding.name.value] = Self.markSecrets(try evaluate(binding.value)) }
    var settings = ProviderDefaults.merge(
      (try evaluate(profile.settings))?.objectValue ?? [:], over: ProviderDefaults.settings(for: profile.kind))
    var forms: [String: Value] = [:]
    for binding in profile.forms { forms[binding.name.value] = try evaluate(binding.value) }
    if !forms.isEmpty { settings["forms"] = .object(forms) }
    let loginPages = try LoginPageProfile.resolve(
      profile.loginPages, forms: forms, environment: environment, evaluate: evaluate)
    if let flag = profile.passwordGrantReturnsIDToken { settings["password_grant_returns_id_token"] = .bool(flag) }
    if let engine = profile.browser { settings["browser"] = .string(engine.value.rawValue) }
    var statuses: [String: Value] = [:]
    for binding in profile.errorStatuses { statuses[binding.name.value] = try evaluate(binding.value) }
    if !statuses.isEmpty { settings["error_statuses"] = .object(statuses) }
    let declared = Set((profile.capabilities + profile.customCapabilities).map(\.value))
    var evidence: [String: String] = [:]
    let declaredSource = "`capabilities` of tenant '\(profile.name.value)' in \(profile.location.file)"
    for capability in declared { evidence[capability] = "declared in \(profile.location.file)" }
    let (inbox, receiver) = try await resolveInbox(profile, evaluate: evaluate)
    if profile.inbox != nil { evidence[TenantInbox.capability] = "`inbox` of tenant '\(profile.name.value)'" }
    // A mock with an SMTP inbox sends its messages there, as a real tenant's SMTP provider would.
    let mailTo = receiver.map { (host: Self.connectableHost(profile.inbox), port: $0.smtpPort) }
    var resolved = try await resolveKind(
      profile, settings: settings, loginPages: loginPages, clients: clients, users: users, declared: declared,
      evidence: evidence, declaredSource: declaredSource, mailTo: mailTo, evaluate: evaluate)
    resolved.context.inbox = inbox
    if inbox != nil { resolved.context.capabilities.insert(TenantInbox.capability) }
    resolved.receiver = receiver
    return resolved
  }

  // swift-format-ignore: FunctionParameterCount
  private func resolveKind(
    _ profile: TenantProfile, settings: [String: Value], loginPages: LoginPageProfile, clients: [String: Value],
    users: [String: Value], declared: Set<String>, evidence: [String: String], declaredSource: String,
    mailTo: (host: String, port: Int)?, evaluate: (Template?) throws(TenantResolutionError) -> Value?
  ) async throws(TenantResolutionError) -> ResolvedTenant {
    var evidence = evidence
    switch profile.kind {
    case .mock:
      let fixturePath = (try evaluate(profile.fixture))?.stringValue
      let handle = try await startMock(fixturePath: fixturePath, mailTo: mailTo)
      var mockClients = handle.clients
      mockClients.merge(clients) { _, override in override }
      var mockUsers = handle.users
      mockUsers.merge(users) { _, override in override }
      let builtIn = handle.capabilities
      for capability in builtIn where evidence[capability] == nil {
        evidence[capability] = "built into the mock tenant"
      }
      var tenant = TenantContext(
        name: profile.name.value, kind: .mock, baseURL: handle.baseURL, issuer: handle.issuer,
        clients: mockClients, users: mockUsers, capabilities: builtIn.union(declared),
        capabilityEvidence: evidence, settings: settings,
        capabilitySources: ["the mock tenant's built-in capabilities", declaredSource])
      tenant.loginPages = loginPages
      register(tenant)
      return ResolvedTenant(context: tenant, mock: handle)
    case .auth0:
      guard let domain = (try evaluate(profile.domain))?.stringValue, !domain.isEmpty else {
        throw TenantResolutionError(
          diagnostics: [.error("tenant '\(profile.name.value)' has no domain", at: profile.location)],
          message: "no domain", isEnvironment: false)
      }
      let scheme = domain.hasPrefix("http") ? domain : "https://\(domain)"
      let base = scheme.hasSuffix("/") ? scheme : scheme + "/"
      let metadata = try await discover(issuer: base, profile: profile)
      let discovered = CapabilityDiscovery(metadata, auth0Extensions: true)
      evidence.merge(discovered.evidence) { declared, _ in declared }
      evidence["logout"] = evidence["logout"] ?? "Auth0 serves /v2/logout"
      var tenant = TenantContext(
        name: profile.name.value, kind: .auth0, baseURL: base, issuer: metadata.issuer, clients: clients,
        users: users, capabilities: Set(evidence.keys), capabilityEvidence: evidence, settings: settings,
        provider: metadata, capabilityAbsence: discovered.absence,
        capabilitySources: ["discovery \(ProviderMetadata.discoveryURL(issuer: base))", declaredSource])
      tenant.loginPages = loginPages
      register(tenant)
      return ResolvedTenant(context: tenant, mock: nil, configuredIssuer: base)
    case .oidc:
      guard let issuer = (try evaluate(profile.issuer))?.stringValue, !issuer.isEmpty else {
        throw TenantResolutionError(
          diagnostics: [.error("tenant '\(profile.name.value)' has no issuer", at: profile.location)],
          message: "no issuer", isEnvironment: false)
      }
      let metadata = try await discover(issuer: issuer, profile: profile)
      let discovered = CapabilityDiscovery(metadata)
      evidence.merge(discovered.evidence) { declared, _ in declared }
      let base = issuer.hasSuffix("/") ? issuer : issuer + "/"
      var tenant = TenantContext(
        name: profile.name.value, kind: .oidc, baseURL: base, issuer: metadata.issuer, clients: clients,
        users: users, capabilities: Set(evidence.keys), capabilityEvidence: evidence, settings: settings,
        endpoints: .discovered(metadata, baseURL: base).overriding(with: settings), provider: metadata,
        capabilityAbsence: discovered.absence,
        capabilitySources: ["discovery \(ProviderMetadata.discoveryURL(issuer: issuer))", declaredSource])
      tenant.loginPages = loginPages
      register(tenant)
      return ResolvedTenant(context: tenant, mock: nil, configuredIssuer: issuer)
    }
  }

  /// The provider's discovery document; its issuer must be the configured one (unless
  /// `verifiesIssuer` is off). Unreachable or malformed is an environment failure.
  private func discover(
    issuer: String, profile: TenantProfile
  ) async throws(TenantResolutionError) -> ProviderMetadata {
    let metadata: ProviderMetadata
    do {
      if let transport {
        metadata = try await ProviderDiscovery.fetch(issuer: issuer, transport: transport)
      } else {
        let live = LiveTransport()
        let result: Result<ProviderMetadata, ProviderDiscovery.Failure>
        do {
          result = .success(try await ProviderDiscovery.fetch(issuer: issuer, transport: live))
        } catch {
          result = .failure(error)
        }
        try? await live.shutdown()
        metadata = try result.get()
      }
    } catch {
      throw TenantResolutionError(diagnostics: [], message: error.message, isEnvironment: true)
    }
    if verifiesIssuer, metadata.issuer != issuer {
      let message = ProviderDiscovery.Messages.issuerMismatch(configured: issuer, discovered: metadata.issuer)
      throw TenantResolutionError(
        diagnostics: [.error(message, at: profile.issuer?.location ?? profile.location)], message: message,
        isEnvironment: false)
    }
    return metadata
  }

  private func register(_ tenant: TenantContext) {
    secrets.register(secretsIn: .object(tenant.clients))
    secrets.register(secretsIn: .object(tenant.users))
  }

  private func startMock(
    fixturePath: String?, mailTo: (host: String, port: Int)?
  ) async throws(TenantResolutionError) -> any EmbeddedTenant {
    guard let embedded else {
      throw TenantResolutionError(
        diagnostics: [], message: "this build has no embedded mock tenant to start", isEnvironment: true)
    }
    let path = fixturePath.map { $0.hasPrefix("/") ? $0 : (projectDirectory as NSString).appendingPathComponent($0) }
    return try await embedded.start(fixturePath: path, mailTo: mailTo)
  }

  /// Passwords and client secrets are secrets wherever they come from.
  static func markSecrets(_ value: Value?) -> Value {
    guard let members = value?.objectValue else { return value ?? .null }
    var marked = members
    for key in ["password", "client_secret", "secret", "totp_secret"] where marked[key] != nil {
      marked[key] = marked[key]?.asSecret
    }
    return .object(marked)
  }
}

/// The messages of ``TenantResolver``.
enum TenantMessages {
  static func unsetVariable(_ name: String, tenant: String) -> String {
    "tenant '\(tenant)' reads env.\(name), which is not set"
  }

  static func unset(_ name: String) -> String { "env.\(name) is not set" }

  /// A running scenario's own read (``BoundRun/unsetEnvironment(in:chromium:)``).
  static func scenarioUnsetVariable(_ name: String) -> String {
    "the scenario reads env.\(name), which is not set"
  }

  static func unsetVariableHint(_ name: String) -> String {
    "export \(name) for the run (in CI, from its secret store); for an optional value write "
      + "default(env.\(name), '…')"
  }
}
