public import AuthFlowCore

/// How the runtime knows the embedded mock tenant (`kind: mock`) without linking it: the
/// executable (and the tests, and `authflow bench`) inject an implementation, `MockTenantHost` in
/// the AuthFlowMockHosting module. The runtime only reads fixtures' client and user names and
/// starts, reads and stops tenants through it (see docs/architecture.md, "Layers").
public protocol EmbeddedTenantHost: Sendable {
  /// The client and user profile names of the fixture at `path` (nil: the built-in fixture); nil
  /// when the fixture cannot be read (its own diagnostics come when the tenant starts).
  func profileNames(fixturePath path: String?) -> ProfileNames?

  /// Starts a tenant serving the fixture at `path` (nil: the built-in fixture) on a loopback port.
  /// A fixture that is not valid throws with its diagnostics (exit 2); a server that does not
  /// start throws as an environment failure (exit 3).
  func start(fixturePath path: String?) async throws(TenantResolutionError) -> any EmbeddedTenant
}

/// The names of a tenant's client and user profiles, as `tenant.clients.NAME` and
/// `tenant.users.NAME` read them.
public struct ProfileNames: Sendable, Equatable {
  public var clients: Set<String>
  public var users: Set<String>
  /// Every field some client profile has (`client_id`, `redirect_uri`, …).
  public var clientFields: Set<String>
  /// Every field some user profile has (`email`, `password`, …).
  public var userFields: Set<String>

  public init(
    clients: Set<String>, users: Set<String>, clientFields: Set<String> = [], userFields: Set<String> = []
  ) {
    self.clients = clients
    self.users = users
    self.clientFields = clientFields
    self.userFields = userFields
  }
}

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
