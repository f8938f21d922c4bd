import AuthFlowCore
public import AuthFlowJOSE
public import AuthFlowMail
import Foundation
import Synchronization

/// One running mock tenant: the fixture, the signing keys, the virtual clock and the state.
///
/// Shared by every request handler. Everything the tenant remembers between requests — the signing
/// keys among it — is one ``MockState`` value owned by ``state`` (one lock, short synchronous
/// steps; routes read it with ``read(_:)`` and change it with ``transact(_:)``, one named
/// transaction a step); the base URL is set once when the server has bound its port.
public final class MockTenant: Sendable {
  public let fixture: TenantFixture
  /// The key tokens are signed with now (replaced ones stay published until revoked).
  public var signingKey: SigningKey { read { $0.signingKeys.current } }
  /// The JWKS, with keys parsed once per rotation (for `/userinfo` access-token checks).
  public var verificationKeys: VerificationKeys { read { $0.signingKeys.verification } }
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
  /// Where its messages go over SMTP too (``MockMailRelay``); nil: the outbox only.
  let relay: MockMailRelay?

  /// How many tokens the tenant has signed with its own keys (ID tokens, JWT access tokens) since
  /// it started: what `authflow bench` counts per login flow. Not reset by ``reset()``.
  public var signaturesMade: Int { signatureCount.load(ordering: .relaxed) }
  private let signatureCount = Atomic<Int>(0)

  /// Signs a token with the current key, counted in ``signaturesMade``.
  func sign(header extra: [String: Value] = [:], claims: [String: Value]) throws -> String {
    signatureCount.add(1, ordering: .relaxed)
    return try signingKey.sign(header: extra, claims: claims)
  }

  /// Signs an ID token as the fixture says (`id_token_signing_alg`, `id_token_kid`): with the
  /// current key, or, for HS256/384/512, with the client's secret (OIDC Core §10.1; a client with
  /// no secret gets the current key's signature, as it cannot share one).
  func signIDToken(claims: [String: Value], clientID: String) throws -> String {
    let settings = fixture.settings
    signatureCount.add(1, ordering: .relaxed)
    if settings.idTokenSigningAlgorithm.isSymmetric, let secret = client(id: clientID)?.clientSecret {
      let key = SigningKey(hmacSecret: Data(secret.utf8), algorithm: settings.idTokenSigningAlgorithm, kid: "hmac")
      return try key.sign(claims: claims, includeKeyID: settings.idTokenKeyID)
    }
    return try signingKey.sign(claims: claims, includeKeyID: settings.idTokenKeyID)
  }

  /// A new signing key of the kind the fixture asks for: RSA-2048 unless `id_token_signing_alg`
  /// is an EC or EdDSA algorithm (an HMAC algorithm keys ID tokens with client secrets; the
  /// tenant's own key, for access tokens, stays RSA).
  public static func makeKey(for fixture: TenantFixture, kid: String? = nil) throws -> SigningKey {
    let algorithm = fixture.settings.idTokenSigningAlgorithm
    return try algorithm.isSymmetric ? SigningKey.generateRSA(kid: kid) : SigningKey.generate(algorithm, kid: kid)
  }

  /// Builds a tenant. `signingKey` defaults to the fixture's key, else the key kept in
  /// `keyCache` (``SigningKeyCache``), else a fresh RSA-2048 key — or, when the fixture's
  /// `id_token_signing_alg` is another kind (``makeKey(for:kid:)``), a fresh key of that kind.
  public init(
    fixture: TenantFixture, baseURL: String = "http://127.0.0.1/", signingKey: SigningKey? = nil,
    keyCache: SigningKeyCache? = nil, clock: VirtualClock = VirtualClock(), limits: MockStateLimits = MockStateLimits(),
    mailRelay: SMTPSender? = nil
  ) throws {
    self.fixture = fixture
    self.limits = limits
    self.relay = mailRelay.map(MockMailRelay.init(sender:))
    let now: @Sendable () -> Double = { clock.seconds }
    let initialKey: SigningKey
    let algorithm = fixture.settings.idTokenSigningAlgorithm
    let rsaAlgorithm: JWSAlgorithm = algorithm.keyType == "RSA" ? algorithm : .rs256
    if let signingKey {
      initialKey = signingKey
    } else if let pem = fixture.signingKeyPEM {
      initialKey = try SigningKey(rsaPEM: pem, kid: fixture.signingKeyID, algorithm: rsaAlgorithm)
    } else if algorithm != .rs256 {
      initialKey = try Self.makeKey(for: fixture, kid: fixture.signingKeyID)
    } else if let keyCache {
      initialKey = try keyCache.key(kid: fixture.signingKeyID)
    } else {
      initialKey = try SigningKey.generateRSA(kid: fixture.signingKeyID)
    }
    self.state = MockStateOwner {
      MockState(fixture: fixture, signingKey: initialKey, limits: limits, now: now)
    }
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
    fixture.client(id: id) ?? read({ $0.registeredClients[id] })
  }

  func organization(_ reference: String) -> OrganizationConfig? {
    if reference.hasPrefix("org_") { return fixture.organizations.first { $0.id == reference } }
    guard fixture.settings.organizationNamesInAuthAPI else { return nil }
    return fixture.organizations.first { $0.name == reference.lowercased() }
  }

  /// Back to the tenant as it started, in one step: a fresh ``MockState`` from the fixture (every
  /// store and the starting signing key at once, by construction) and, in the same critical
  /// section, the clock without offset.
  ///
  /// The clock is the one part outside the state: it is the caller's object (injected, held and
  /// advanced by the host and the tests), read by every request without the state lock and by the
  /// stores' purges inside it — an offset inside the state would make every clock read take the
  /// state lock, and those purges deadlock. What survives a reset on purpose: the base URL, the
  /// `/__mock/sign` key and the count of signatures made.
  public func reset() async {
    state.reset(alongside: { clock.reset() })
  }

  /// Reads the tenant's state in one atomic step (see ``MockStateOwner``).
  func read<Result: Sendable>(_ body: (MockState) -> Result) -> Result {
    state.read(body)
  }

  /// Runs one named transaction of the tenant's state (`State/Transactions/`) in one atomic step
  /// (see ``MockStateOwner``). Never sign, hash or encode inside it.
  @discardableResult
  func transact<Result: Sendable>(_ body: (inout MockState) -> Result) -> Result {
    guard let relay else { return state.transact(body) }
    // The messages the transaction sent go over SMTP once it is done, outside the state's lock.
    let (result, sent) = state.transact { state in
      let before = state.outbox.lastID
      let result = body(&state)
      return (result, state.outbox.sent(after: before))
    }
    for message in sent { relay.deliver(message) }
    return result
  }

  /// Waits until the messages sent so far are delivered over SMTP (none to wait for without a relay).
  func messagesDelivered() async {
    await relay?.drained()
  }

  /// Whether its messages go over SMTP too.
  var relaysMail: Bool { relay != nil }

  /// Delivers the messages still waiting to go over SMTP (when the tenant stops).
  func finishDelivery() async {
    await relay?.finish()
  }
}
