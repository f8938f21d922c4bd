import AuthFlowCore
public import AuthFlowJOSE
import Foundation
import Synchronization

/// One running mock tenant: the fixture, the signing keys, the virtual clock and the state.
///
/// Shared by every request handler. Everything the tenant remembers between requests is one
/// ``MockState`` value owned by ``state`` (one lock, short synchronous steps; the protocol's
/// multi-store operations are single steps of it); the base URL is set once when the server has
/// bound its port.
public final class MockTenant: Sendable {
  public let fixture: TenantFixture
  /// The signing keys: the current one signs, replaced ones stay published until revoked.
  let keyRing: SigningKeyRing
  /// The key tokens are signed with now.
  public var signingKey: SigningKey { keyRing.current }
  /// The JWKS, with keys parsed once per rotation (for `/userinfo` access-token checks).
  public var verificationKeys: VerificationKeys { keyRing.verification }
  public let clock: VirtualClock
  private let base = Mutex<String>("http://127.0.0.1/")
  /// The key `/__mock/sign` signs with (made at its first use): published in the JWKS, so a relying
  /// party can verify minted tokens, but never one of the tenant's keys, so no endpoint of the
  /// tenant accepts a minted token however its signature is encoded. It survives reset.
  let mintingKeyStore = Mutex<SigningKey?>(nil)
  /// The one owner of the tenant's mutable state.
  let state: MockStateOwner

  /// The bounds of the per-login state.
  public let limits: MockStateLimits

  /// How many tokens the tenant has signed with its own keys (ID tokens, JWT access tokens) since
  /// it started: what `authflow bench` counts per login flow. Not reset by ``reset()``.
  public var signaturesMade: Int { signatureCount.load(ordering: .relaxed) }
  private let signatureCount = Atomic<Int>(0)

  /// Signs a token with the current key, counted in ``signaturesMade``.
  func sign(header extra: [String: Value] = [:], claims: [String: Value]) throws -> String {
    signatureCount.add(1, ordering: .relaxed)
    return try signingKey.sign(header: extra, claims: claims)
  }

  /// Builds a tenant. `signingKey` defaults to the fixture's key, or a fresh RSA-2048 key.
  public init(
    fixture: TenantFixture, baseURL: String = "http://127.0.0.1/", signingKey: SigningKey? = nil,
    clock: VirtualClock = VirtualClock(), limits: MockStateLimits = MockStateLimits()
  ) throws {
    self.fixture = fixture
    self.limits = limits
    let now: @Sendable () -> Double = { clock.seconds }
    self.state = MockStateOwner { MockState(fixture: fixture, limits: limits, now: now) }
    let initialKey: SigningKey
    if let signingKey {
      initialKey = signingKey
    } else if let pem = fixture.signingKeyPEM {
      initialKey = try SigningKey(rsaPEM: pem, kid: fixture.signingKeyID)
    } else {
      initialKey = try SigningKey.generateRSA(kid: fixture.signingKeyID)
    }
    self.keyRing = SigningKeyRing(initial: initialKey)
    self.clock = clock
    setBaseURL(baseURL)
  }

  /// The server's base URL with a trailing slash, e.g. `http://127.0.0.1:54321/`.
  public var baseURL: String { base.withLock { $0 } }

  /// Sets the base URL (once the port is known).
  public func setBaseURL(_ url: String) {
    base.withLock { $0 = url.hasSuffix("/") ? url : url + "/" }
  }

  /// `iss`: the fixture's issuer override, or the base URL with a trailing slash.
  public var issuer: String { fixture.settings.issuer ?? baseURL }

  /// The host of the base URL (no port), for `urn:<host>:session_transfer`.
  var host: String { URLComponents(string: baseURL)?.host ?? "127.0.0.1" }

  /// The API whose audience is `audience`.
  func api(audience: String) -> APIConfig? {
    let issuer = self.issuer
    return fixture.apis.first { $0.audience(issuer: issuer) == audience }
  }

  /// A configured audience as seen on the wire: a built-in API's identifier (`my_account`,
  /// `management`) becomes its audience under the issuer; anything else is itself.
  func wireAudience(_ configured: String) -> String {
    fixture.apis.first { $0.kind != .custom && $0.identifier == configured }?.audience(issuer: issuer) ?? configured
  }

  /// The client with this `client_id`: a fixture client or one registered at `/oidc/register`.
  func client(id: String) -> ClientConfig? {
    fixture.client(id: id) ?? state.withState({ $0.registeredClients[id] })
  }

  /// How many clients Dynamic Client Registration created.
  var registeredClientCount: Int { state.withState({ $0.registeredClients.count }) }

  /// Adds a client created by Dynamic Client Registration, unless `limit` clients exist already
  /// (checked and added under one lock, so concurrent registrations cannot pass the limit).
  func register(_ client: ClientConfig, limit: Int) -> Bool {
    state.withState { state in
      guard state.registeredClients.count < limit else { return false }
      state.registeredClients[client.clientID] = client
      return true
    }
  }

  func organization(_ reference: String) -> OrganizationConfig? {
    if reference.hasPrefix("org_") { return fixture.organizations.first { $0.id == reference } }
    guard fixture.settings.organizationNamesInAuthAPI else { return nil }
    return fixture.organizations.first { $0.name == reference.lowercased() }
  }

  /// Back to the tenant as it started: a fresh ``MockState`` from the fixture (every store at
  /// once, by construction), the clock without offset, the starting signing key.
  public func reset() async {
    state.reset()
    clock.reset()
    keyRing.reset()
  }

  /// Runs `body` on the tenant's state, alone: one atomic step (see ``MockStateOwner``). Never
  /// sign, hash or encode inside it.
  @discardableResult
  func withState<Result: Sendable>(_ body: (inout MockState) -> Result) -> Result {
    state.withState(body)
  }
}
