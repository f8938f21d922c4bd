import AuthFlowCore
import AuthFlowJOSE

/// Everything a running mock tenant remembers between requests, as one value: users, Universal
/// Login transactions, codes, sessions, tokens, OTP and MFA attempts, passkeys, organizations,
/// device and CIBA requests, the outbox, faults, registered clients.
///
/// One value, one owner (``MockStateOwner``): every store is a value type, so an operation that
/// reads one store and writes another (redeem a code and mark it redeemed, count a wrong OTP and
/// use the code up) runs as one step under one lock. Routes change the state only through the
/// transactions named after the protocol in `State/Transactions/` — one `mutating` method each —
/// and read it through ``MockStateOwner/read(_:)``. Reset builds a fresh value from the fixture
/// (signing keys included), so there is no list of stores to remember.
///
/// The per-login stores are bounded and expire on the virtual clock (``MockStateLimits``).
struct MockState: Sendable {
  /// The signing keys (rotated by `/__mock/rotate-keys`; the starting key again after a reset).
  var signingKeys: SigningKeys
  var users: UserStore
  /// Clients created at `/oidc/register` (Dynamic Client Registration), by `client_id`.
  var registeredClients: [String: ClientConfig] = [:]
  var transactions: ExpiringStore<LoginTransaction>
  var codes: ExpiringStore<IssuedCode>
  /// Codes already exchanged, with the refresh-token family they started (revoked on reuse).
  var redeemedCodes: ExpiringStore<String>
  /// MFA code limits: failures per user, and codes already used.
  var mfaAttempts: ExpiringStore<MFAThrottle.Bucket>
  var usedMFACodes: ExpiringStore<Bool>
  /// Signatures of the tokens `/__mock/sign` made: never accepted by the tenant's own endpoints.
  var mintedSignatures: Set<String> = []
  var sessions: ExpiringStore<SSOSession>
  var mfaTokens: ExpiringStore<Grant>
  var passwordlessCodes: ExpiringStore<String>
  /// Wrong guesses per passwordless code (`realm|address`); a new code starts again at zero.
  var passwordlessAttempts: ExpiringStore<Int>
  /// `/otp/challenge` sessions by `auth_session`.
  var otpChallenges: ExpiringStore<OTPChallenge>
  var refreshTokens: RefreshTokenStore
  /// Opaque access tokens (issued without an audience, docs/protocol.md §3.2), good only at `/userinfo`.
  var opaqueAccessTokens: ExpiringStore<OpaqueAccessToken>
  var outbox: Outbox
  var protection: AttackProtection
  /// MFA OOB challenges and pending OTP associations.
  var mfa: MFAStore
  var faults = FaultStore()
  /// Apple authorization codes already exchanged (single use).
  var usedSubjectTokens: ExpiringStore<Bool>
  var passkeys: PasskeyStore
  var identityLinks = IdentityLinkStore()
  var myAccount: MyAccountStore
  var social: SocialLoginStore
  /// Organization members and invitations.
  var organizations: OrganizationStore
  /// Session transfer tokens issued by `/oauth/token`, redeemed at `/authorize`.
  var sessionTransfers: ExpiringStore<SessionTransfer>
  /// Device authorizations (RFC 8628), by device code and user code.
  var deviceCodes: DeviceCodeStore
  /// `/activate` transactions (the CSRF token of the user-code and confirmation forms).
  var deviceActivations: ExpiringStore<DeviceActivation>
  /// CIBA requests from `/bc-authorize`, by `auth_req_id`.
  var backchannel: BackchannelStore
  /// Pushed authorization requests (`/oauth/par`) by `request_uri`, single use.
  var pushedRequests: ExpiringStore<[String: Value]>

  /// The state of a tenant that has just started: the fixture's users and organization members and
  /// the starting signing key, nothing else. `now` is the tenant's virtual time (for purging
  /// expired entries).
  init(
    fixture: TenantFixture, signingKey: SigningKey, limits: MockStateLimits, now: @escaping @Sendable () -> Double
  ) {
    signingKeys = SigningKeys(initial: signingKey)
    users = UserStore(seed: Array(fixture.users.values))
    organizations = OrganizationStore(fixture: fixture)
    transactions = ExpiringStore(limits: limits, now: now)
    codes = ExpiringStore(limits: limits, now: now)
    redeemedCodes = ExpiringStore(limits: limits, now: now)
    mfaAttempts = ExpiringStore(limits: limits, now: now)
    usedMFACodes = ExpiringStore(limits: limits, now: now)
    sessions = ExpiringStore(limits: limits, now: now)
    mfaTokens = ExpiringStore(limits: limits, now: now)
    passwordlessCodes = ExpiringStore(limits: limits, now: now)
    passwordlessAttempts = ExpiringStore(limits: limits, now: now)
    otpChallenges = ExpiringStore(limits: limits, now: now)
    usedSubjectTokens = ExpiringStore(limits: limits, now: now)
    sessionTransfers = ExpiringStore(limits: limits, now: now)
    deviceActivations = ExpiringStore(limits: limits, now: now)
    pushedRequests = ExpiringStore(limits: limits, now: now)
    opaqueAccessTokens = ExpiringStore(limits: limits, now: now)
    refreshTokens = RefreshTokenStore(limits: limits)
    outbox = Outbox(limits: limits)
    protection = AttackProtection(limits: limits)
    passkeys = PasskeyStore(limits: limits, now: now)
    myAccount = MyAccountStore(limits: limits, now: now)
    social = SocialLoginStore(limits: limits, now: now)
    mfa = MFAStore(limits: limits, now: now)
    backchannel = BackchannelStore(limits: limits, now: now)
    deviceCodes = DeviceCodeStore(limits: limits)
  }

  /// How many entries each per-login store holds, by name: what ``MockStateLimits`` bounds.
  var counts: [String: Int] {
    [
      "transactions": transactions.count,
      "codes": codes.count,
      "redeemed_codes": redeemedCodes.count,
      "sessions": sessions.count,
      "mfa_attempts": mfaAttempts.count,
      "used_mfa_codes": usedMFACodes.count,
      "mfa_tokens": mfaTokens.count,
      "passwordless_codes": passwordlessCodes.count,
      "passwordless_attempts": passwordlessAttempts.count,
      "otp_challenges": otpChallenges.count,
      "used_subject_tokens": usedSubjectTokens.count,
      "session_transfers": sessionTransfers.count,
      "device_activations": deviceActivations.count,
      "pushed_requests": pushedRequests.count,
      "opaque_access_tokens": opaqueAccessTokens.count,
      "refresh_token_families": refreshTokens.counts.families,
      "refresh_tokens": refreshTokens.counts.tokens,
      "rate_limit_windows": protection.counts.windows,
      "tickets": protection.counts.tickets,
      "outbox_messages": outbox.count,
      "minted_signatures": mintedSignatures.count,
      "mfa_oob_challenges": mfa.counts.oob,
      "mfa_pending_otp": mfa.counts.pendingOTP,
      "backchannel_requests": backchannel.count,
      "device_codes": deviceCodes.count,
    ]
  }
}

extension MockState {
  /// How many entries every store holds, by name: the bounded per-login stores of ``counts`` and
  /// the others (users, clients, faults, passkeys, …). What a reset must bring back to a fresh
  /// tenant's (the reset test compares them).
  var census: [String: Int] {
    counts.merging(
      [
        "users": users.counts.users, "failure_counts": users.counts.failures,
        "registered_clients": registeredClients.count, "faults": faults.count,
        "passkeys": passkeys.count, "passkey_sessions": passkeys.sessions.count,
        "identity_links": identityLinks.count, "my_account_methods": myAccount.count,
        "my_account_enrollments": myAccount.pending.count, "social_states": social.states.count,
        "social_codes": social.codes.count, "organization_members": organizations.counts.members,
        "invitations": organizations.counts.invitations,
        "published_signing_keys": signingKeys.publishedKeyIDs.count,
      ]
    ) { $1 }
  }
}
