import AuthFlowCore
import AuthFlowJOSE
import Foundation

/// Builds token responses (docs/protocol.md §3.2) and the ID and access tokens inside them
/// (docs/protocol.md §12, item 2).
struct TokenIssuer {
  let tenant: MockTenant

  /// Scopes granted for a request in a user's context: OIDC scopes always; API scopes only those
  /// the API defines and, for the Management API, only the current-user ones (others are dropped).
  func grantedScope(requested: [String], audience: String?, extra: [String] = [], clientID: String? = nil) -> [String] {
    let api = audience.flatMap(tenant.api(audience:))
    let legacy = tenant.legacyScopeClaims(clientID: clientID)
    return requested.filter { scope in
      Scope.oidc.contains(scope) || (legacy && Scope.legacyAttributes.contains(scope))
        || (api.map { Self.userContextAllows(scope, api: $0) } ?? false) || extra.contains(scope)
    }
  }

  /// Whether a token issued in a user's context for `api` may carry `scope`: the API defines it
  /// and, for the Management API, it is a current-user scope.
  static func userContextAllows(_ scope: String, api: APIConfig) -> Bool {
    api.scopes.contains(scope) && (api.kind != .management || Scope.currentUser.contains(scope))
  }

  /// The JSON body of a successful token response, and the refresh token issued (to store).
  func response(
    for grant: Grant, client: ClientConfig, requestedScope: [String], issueRefreshToken: Bool,
    refreshToken existing: String? = nil, family: String? = nil
  ) async throws -> [String: Value] {
    let user = grant.userID.flatMap { userID in tenant.read { $0.users.user(id: userID) } }
    let now = tenant.clock.epoch
    let settings = tenant.fixture.settings
    var body: [String: Value] = [
      "access_token": .string(try accessToken(for: grant, user: user, now: now)),
      "token_type": .string("Bearer"),
      "expires_in": .int(settings.accessTokenLifetime),
    ]
    if grant.scope.contains("openid"), let user {
      body["id_token"] = .string(try idToken(for: grant, user: user, now: now))
    }
    if let existing {
      body["refresh_token"] = .string(existing)
    } else if issueRefreshToken, canIssueRefreshToken(grant: grant, client: client) {
      let token = RandomToken.make(bytes: 32)
      let family = family ?? RandomToken.make(bytes: 12)
      let now = tenant.clock.seconds
      let lifetime = Double(settings.refreshTokenLifetime)
      tenant.transact { $0.issueRefreshToken(token, for: grant, family: family, now: now, lifetime: lifetime) }
      body["refresh_token"] = .string(token)
    }
    if grant.scope != requestedScope || !requestedScope.isEmpty {
      body["scope"] = .string(Scope.join(grant.scope))
    }
    return body
  }

  func canIssueRefreshToken(grant: Grant, client: ClientConfig) -> Bool {
    guard grant.userID != nil, grant.scope.contains("offline_access"),
      client.grantTypes.contains("refresh_token")
    else { return false }
    if let audience = grant.audience, let api = tenant.api(audience: audience) { return api.allowOfflineAccess }
    return true
  }

  /// - Parameters:
  ///   - accessToken: the access token issued beside it at the authorization endpoint
  ///     (`response_type=id_token token`, `code id_token token`), whose hash the token carries as
  ///     `at_hash`, REQUIRED there (OIDC Core §3.2.2.10, §3.3.2.11), as Auth0 includes it.
  ///   - code: the code issued beside it (a hybrid flow), whose hash it carries as `c_hash`
  ///     (REQUIRED, OIDC Core §3.3.2.11).
  func idToken(
    for grant: Grant, user: UserRecord, now: Int, accessToken: String? = nil, code: String? = nil
  ) throws -> String {
    var claims: [String: Value] = [
      "iss": .string(tenant.issuer), "sub": .string(user.userID), "aud": .string(grant.clientID),
      "iat": .int(now), "exp": .int(now + tenant.fixture.settings.idTokenLifetime),
    ]
    if let accessToken,
      let hash = TokenHash.value(of: accessToken, algorithm: tenant.fixture.settings.idTokenSigningAlgorithm)
    {
      claims["at_hash"] = .string(hash)
    }
    if let code, let hash = TokenHash.value(of: code, algorithm: tenant.fixture.settings.idTokenSigningAlgorithm) {
      claims["c_hash"] = .string(hash)
    }
    if let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
    if grant.includeAuthTime, let authTime = grant.authTime { claims["auth_time"] = .int(Int(authTime)) }
    if let organization = grant.organization {
      claims["org_id"] = .string(organization.id)
      if tenant.fixture.settings.organizationNamesInAuthAPI { claims["org_name"] = .string(organization.name) }
    }
    claims.merge(
      UserClaims.claims(
        for: user, scope: grant.scope, legacy: tenant.legacyScopeClaims(clientID: grant.clientID),
        updatedAt: tenant.fixture.settings.updatedAtFormat)
    ) {
      current, _ in current
    }
    applyRules(.idToken, user: user, to: &claims)
    return try tenant.signIDToken(claims: claims, clientID: grant.clientID)
  }

  /// The access token of `grant` (docs/protocol.md §3.2, "Access-token format"): with an audience, a JWT
  /// signed like the ID token; without one (a user's token), an opaque token good only at
  /// `/userinfo`, remembered in the state until it expires — no signature, as Auth0 does.
  func accessToken(for grant: Grant, user: UserRecord?, now: Int) throws -> String {
    if grant.audience == nil, let user { return opaqueAccessToken(for: grant, user: user) }
    return try jwtAccessToken(for: grant, user: user, now: now)
  }

  /// A random opaque access token (32 bytes, base64url) for `/userinfo`, with what it needs.
  func opaqueAccessToken(for grant: Grant, user: UserRecord) -> String {
    let token = RandomToken.make(bytes: 32)
    let issued = OpaqueAccessToken(subject: user.userID, scope: grant.scope, clientID: grant.clientID)
    let expiresAt = tenant.clock.seconds + Double(tenant.fixture.settings.accessTokenLifetime)
    tenant.transact { $0.rememberOpaqueAccessToken(token, issued, expiresAt: expiresAt) }
    return token
  }

  func jwtAccessToken(for grant: Grant, user: UserRecord?, now: Int) throws -> String {
    var audiences: [Value] = []
    if let audience = grant.audience { audiences.append(.string(audience)) }
    if grant.scope.contains("openid") || grant.audience == nil {
      audiences.append(.string(tenant.issuer + "userinfo"))
    }
    var claims: [String: Value] = [
      "iss": .string(tenant.issuer), "aud": audiences.count == 1 ? audiences[0] : .array(audiences),
      "iat": .int(now), "exp": .int(now + tenant.fixture.settings.accessTokenLifetime),
      "scope": .string(Scope.join(grant.scope)), "azp": .string(grant.clientID),
      // RFC 9068 (JWT access tokens, `typ: at+jwt`) requires a unique `jti`: two tokens issued in
      // the same second for the same grant differ.
      "jti": .string(RandomToken.make(bytes: 16)),
    ]
    if let user {
      claims["sub"] = .string(user.userID)
    } else {
      claims["sub"] = .string("\(grant.clientID)@clients")
      claims["gty"] = .string("client-credentials")
    }
    if let organization = grant.organization {
      claims["org_id"] = .string(organization.id)
      if tenant.fixture.settings.organizationNamesInAuthAPI { claims["org_name"] = .string(organization.name) }
    }
    if let user { applyRules(.accessToken, user: user, to: &claims) }
    return try tenant.sign(header: ["typ": .string("at+jwt")], claims: claims)
  }

  private func applyRules(_ target: ClaimRule.Target, user: UserRecord, to claims: inout [String: Value]) {
    for rule in tenant.fixture.claimRules where rule.tokens.contains(target) {
      if let value = rule.value {
        claims[rule.claim] = value
      } else if let path = rule.from, let value = UserClaims.lookup(path, in: user) {
        claims[rule.claim] = value
      }
    }
  }
}

/// What `/userinfo` needs of an opaque access token (docs/protocol.md §4.6); its expiry is the store's.
struct OpaqueAccessToken: Sendable {
  var subject: String
  var scope: [String]
  var clientID: String
}

extension Optional {
  func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
    guard let value = self else { return nil }
    return try await transform(value)
  }
}
