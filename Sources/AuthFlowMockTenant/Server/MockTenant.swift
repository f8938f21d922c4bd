import AuthFlowCore
public import AuthFlowJOSE
import Foundation
import Synchronization

/// One running mock tenant: the fixture, the signing key, the virtual clock and the stores.
///
/// Shared by every request handler; the stores are actors, the base URL is set once when the server
/// has bound its port.
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
  /// Clients created at `/oidc/register` (Dynamic Client Registration), by `client_id`.
  private let registered = Mutex<[String: ClientConfig]>([:])

  let users: UserStore
  let transactions: ExpiringStore<LoginTransaction>
  let codes: ExpiringStore<IssuedCode>
  /// Codes already exchanged, with the refresh-token family they started (revoked on reuse).
  let redeemedCodes: ExpiringStore<String>
  /// MFA code limits: failures per user, and codes already used.
  let mfaAttempts: ExpiringStore<MFAThrottle.Bucket>
  let usedMFACodes: ExpiringStore<Bool>
  /// Signatures of the tokens `/__mock/sign` made: never accepted by the tenant's own endpoints.
  let mintedSignatures = Mutex<Set<String>>([])
  /// The key `/__mock/sign` signs with (made at its first use): published in the JWKS, so a relying
  /// party can verify minted tokens, but never one of the tenant's keys, so no endpoint of the
  /// tenant accepts a minted token however its signature is encoded.
  let mintingKeyStore = Mutex<SigningKey?>(nil)
  let sessions: ExpiringStore<SSOSession>
  let mfaTokens: ExpiringStore<Grant>
  let passwordlessCodes: ExpiringStore<String>
  /// Wrong guesses per passwordless code (`realm|address`); a new code starts again at zero.
  let passwordlessAttempts: ExpiringStore<Int>
  /// `/otp/challenge` sessions by `auth_session`.
  let otpChallenges: ExpiringStore<OTPChallenge>
  let refreshTokens: RefreshTokenStore
  let outbox: Outbox
  let protection: AttackProtection
  let mfa = MFAStore()
  let faults = FaultStore()
  /// Apple authorization codes already exchanged (single use).
  let usedSubjectTokens: ExpiringStore<Bool>
  let passkeys = PasskeyStore()
  let identityLinks = IdentityLinkStore()
  let myAccount = MyAccountStore()
  let social = SocialLoginStore()
  /// Organization members and invitations.
  let organizations: OrganizationStore
  /// Session transfer tokens issued by `/oauth/token`, redeemed at `/authorize`.
  let sessionTransfers: ExpiringStore<SessionTransfer>
  /// Device authorizations (RFC 8628), by device code and user code.
  let deviceCodes = DeviceCodeStore()
  /// `/activate` transactions (the CSRF token of the user-code and confirmation forms).
  let deviceActivations: ExpiringStore<DeviceActivation>
  /// CIBA requests from `/bc-authorize`, by `auth_req_id`.
  let backchannel = BackchannelStore()
  /// Pushed authorization requests (`/oauth/par`) by `request_uri`, single use.
  let pushedRequests: ExpiringStore<[String: Value]>

  /// The bounds of the per-login state.
  public let limits: MockStateLimits

  /// Builds a tenant. `signingKey` defaults to the fixture's key, or a fresh RSA-2048 key.
  public init(
    fixture: TenantFixture, baseURL: String = "http://127.0.0.1/", signingKey: SigningKey? = nil,
    clock: VirtualClock = VirtualClock(), limits: MockStateLimits = MockStateLimits()
  ) throws {
    self.fixture = fixture
    self.limits = limits
    let now: @Sendable () -> Double = { clock.seconds }
    self.transactions = ExpiringStore(limits: limits, now: now)
    self.codes = ExpiringStore(limits: limits, now: now)
    self.redeemedCodes = ExpiringStore(limits: limits, now: now)
    self.mfaAttempts = ExpiringStore(limits: limits, now: now)
    self.usedMFACodes = ExpiringStore(limits: limits, now: now)
    self.sessions = ExpiringStore(limits: limits, now: now)
    self.mfaTokens = ExpiringStore(limits: limits, now: now)
    self.passwordlessCodes = ExpiringStore(limits: limits, now: now)
    self.passwordlessAttempts = ExpiringStore(limits: limits, now: now)
    self.otpChallenges = ExpiringStore(limits: limits, now: now)
    self.usedSubjectTokens = ExpiringStore(limits: limits, now: now)
    self.sessionTransfers = ExpiringStore(limits: limits, now: now)
    self.deviceActivations = ExpiringStore(limits: limits, now: now)
    self.pushedRequests = ExpiringStore(limits: limits, now: now)
    self.refreshTokens = RefreshTokenStore(limits: limits)
    self.outbox = Outbox(limits: limits)
    self.protection = AttackProtection(limits: limits)
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
    self.users = UserStore(seed: Array(fixture.users.values))
    self.organizations = OrganizationStore(fixture: fixture)
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
    fixture.client(id: id) ?? registered.withLock { $0[id] }
  }

  /// How many clients Dynamic Client Registration created.
  var registeredClientCount: Int { registered.withLock { $0.count } }

  /// Adds a client created by Dynamic Client Registration, unless `limit` clients exist already
  /// (checked and added under one lock, so concurrent registrations cannot pass the limit).
  func register(_ client: ClientConfig, limit: Int) -> Bool {
    registered.withLock { clients in
      guard clients.count < limit else { return false }
      clients[client.clientID] = client
      return true
    }
  }

  func organization(_ reference: String) -> OrganizationConfig? {
    if reference.hasPrefix("org_") { return fixture.organizations.first { $0.id == reference } }
    guard fixture.settings.organizationNamesInAuthAPI else { return nil }
    return fixture.organizations.first { $0.name == reference.lowercased() }
  }

  /// Clears every store and the clock offset; users go back to the fixture's.
  public func reset() async {
    clock.reset()
    keyRing.reset()
    registered.withLock { $0.removeAll() }
    await users.reset()
    await transactions.removeAll()
    await codes.removeAll()
    await redeemedCodes.removeAll()
    await mfaAttempts.removeAll()
    await usedMFACodes.removeAll()
    mintedSignatures.withLock { $0.removeAll() }
    await sessions.removeAll()
    await mfaTokens.removeAll()
    await passwordlessCodes.removeAll()
    await passwordlessAttempts.removeAll()
    await otpChallenges.removeAll()
    await refreshTokens.removeAll()
    await outbox.clear()
    await protection.removeAll()
    await mfa.removeAll()
    await faults.removeAll()
    await usedSubjectTokens.removeAll()
    await passkeys.reset()
    await identityLinks.reset()
    await myAccount.reset()
    await social.reset()
    await organizations.reset()
    await sessionTransfers.removeAll()
    await deviceCodes.removeAll()
    await deviceActivations.removeAll()
    await backchannel.removeAll()
    await pushedRequests.removeAll()
  }
}
