public import AuthFlowCore
public import AuthFlowScenario

/// How the runtime knows the embedded mock tenant (`kind: mock`) without linking it: the
/// executable (and the tests, and `authflow bench`) inject an implementation, `MockTenantHost` in
/// the AuthFlowMockHosting module. The runtime only reads fixtures' client and user names and
/// starts, reads and stops tenants through it (see docs/architecture.md, "Layers").
public protocol EmbeddedTenantHost: Sendable {
  /// The client and user profiles of the fixture at `path` (nil: the built-in fixture), by name
  /// and field; nil when the fixture cannot be read (its own diagnostics come when it starts).
  func profileNames(fixturePath path: String?) -> FixtureProfiles?

  /// Starts a tenant serving the fixture at `path` (nil: the built-in fixture) on a loopback port,
  /// sending its messages over SMTP to `mailTo` too when given (a mock tenant's `inbox.smtp`).
  /// A fixture that is not valid throws with its diagnostics (exit 2); a server that does not
  /// start throws as an environment failure (exit 3).
  func start(
    fixturePath path: String?, mailTo: (host: String, port: Int)?
  ) async throws(TenantResolutionError) -> any EmbeddedTenant
}

extension EmbeddedTenantHost {
  /// Starts a tenant whose messages go to its outbox only.
  public func start(fixturePath path: String?) async throws(TenantResolutionError) -> any EmbeddedTenant {
    try await start(fixturePath: path, mailTo: nil)
  }
}

/// A fixture's profiles by name and field (``AuthFlowScenario/ProfileNames``), under the name the
/// mock's host uses: it depends on the runtime, not on the scenario layer.
public typealias FixtureProfiles = AuthFlowScenario.ProfileNames

/// A running embedded tenant.
public protocol EmbeddedTenant: Sendable {
  /// `http://127.0.0.1:PORT/`, with the trailing slash.
  var baseURL: String { get }
  /// The issuer its tokens carry.
  var issuer: String { get }
  /// The fixture's clients, as `clients.<name>` in expressions (secrets marked).
  var clients: [String: Value] { get }
  /// The fixture's users, as `users.<name>` in expressions (passwords and TOTP secrets marked).
  var users: [String: Value] { get }
  /// What this tenant implements, given its fixture (``Capability/mock`` less what it turns off).
  var capabilities: Set<String> { get }
  /// How many tokens the tenant has signed since it started (ID tokens, JWT access tokens): what
  /// `authflow bench` counts per login flow. Nil when the tenant does not count.
  var signaturesMade: Int? { get }
  /// Stops the server and waits for it to finish.
  func stop() async
}

extension EmbeddedTenant {
  public var signaturesMade: Int? { nil }
}
