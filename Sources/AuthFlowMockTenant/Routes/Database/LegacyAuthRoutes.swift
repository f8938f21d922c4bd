import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// The legacy endpoints Lock v1 used (docs/protocol.md §10): `POST /oauth/ro` (resource owner password)
/// and `POST /oauth/access_token` (a social provider's access token). Auth0 disabled both for
/// tenants created after 8 June 2017; an app keeps them through its legacy grant types, so the
/// mock serves them only to clients whose `grant_types` name them (the `legacy` fixture client),
/// and answers everyone else Auth0's `unauthorized_client`. Tokens follow the client's (or
/// tenant's) `legacy_scope_claims` pipeline.
struct LegacyAuthRoutes {
  let tenant: MockTenant

  enum GrantType {
    static let ro = "http://auth0.com/oauth/legacy/grant-type/ro"
    static let accessToken = "http://auth0.com/oauth/legacy/grant-type/access_token"
  }

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "legacyResourceOwner": { request, context in
        await respond { () async throws -> [String: Value] in try await ro(request, context: context) }
      },
      "legacyAccessToken": { request, context in
        await respond { () async throws -> [String: Value] in try await accessToken(request, context: context) }
      },
    ]
  }

  private func respond(_ body: () async throws -> [String: Value]) async -> Response {
    await OAuthError.respond { Responses.json(.object(try await body())) }
  }

  /// `{client_id, connection, grant_type: "password", username, password, scope, device?}` →
  /// `{id_token, access_token, token_type, refresh_token?}`.
  private func ro(_ request: Request, context: BasicRequestContext) async throws -> [String: Value] {
    let (parameters, client) = try await authenticate(request, context: context, grant: GrantType.ro)
    let grantType = parameters.string("grant_type") ?? "password"
    guard grantType == "password" else { throw OAuthError.unsupportedGrantType(grantType) }
    guard let username = parameters.string("username") else { throw OAuthError.missingParameter("username") }
    guard let password = parameters.string("password") else { throw OAuthError.missingParameter("password") }
    let connection = try legacyConnection(parameters, client: client) { $0 == .database }
    let check = BruteForce(tenant: tenant).check(
      password, identifier: username, connection: connection.name, ip: parameters.clientIP)
    let user: UserRecord
    switch check {
    case .blocked: throw OAuthError.tooManyAttempts
    case .wrong: throw OAuthError.invalidUserPassword
    case .accepted(let accepted): user = accepted
    }
    if user.blocked { throw OAuthError.legacyBlockedUser }
    // No token for a user whose second factor this endpoint cannot ask for.
    if !user.mfa.isEmpty { throw OAuthError.legacyMFARequired }
    return try await tokens(for: user, parameters: parameters, client: client)
  }

  /// `{client_id, access_token, connection, scope}` → `{id_token?, access_token, token_type}`.
  private func accessToken(_ request: Request, context: BasicRequestContext) async throws -> [String: Value] {
    let (parameters, client) = try await authenticate(request, context: context, grant: GrantType.accessToken)
    guard let providerToken = parameters.string("access_token") else {
      throw OAuthError.missingParameter("access_token")
    }
    let connection = try legacyConnection(parameters, client: client) { $0 == .social }
    guard
      let subject = connection.subjectTokens.first(where: { RandomToken.constantTimeEquals($0.token, providerToken) })
    else { throw OAuthError.invalidSocialAccessToken }
    let userID = "\(connection.name)|\(subject.userID)"
    let fresh = UserRecord(
      profile: subject.email ?? userID, userID: userID, connection: connection.name, email: subject.email,
      emailVerified: subject.email != nil, name: subject.name, updatedAt: tenant.clock.seconds)
    // Found, or created on first login, in one step (the stored profile is kept as it is).
    let user = tenant.transact { $0.providerLogin(fresh, followLinks: false, refresh: { _ in }) }
    if user.blocked { throw OAuthError.legacyBlockedUser }
    var body = try await tokens(for: user, parameters: parameters, client: client)
    body["refresh_token"] = nil
    return body
  }

  private func authenticate(
    _ request: Request, context: BasicRequestContext, grant: String
  ) async throws -> (RequestParameters, ClientConfig) {
    try await ClientAuthentication.request(request, context: context, tenant: tenant, grant: grant)
  }

  private func legacyConnection(
    _ parameters: RequestParameters, client: ClientConfig, strategy: (ConnectionConfig.Strategy) -> Bool
  ) throws(OAuthError) -> ConnectionConfig {
    guard let name = parameters.string("connection") else { throw OAuthError.missingParameter("connection") }
    guard let connection = tenant.fixture.connection(named: name), strategy(connection.strategy) else {
      throw OAuthError.connectionNotFound
    }
    guard connection.enabledClients.isEmpty || connection.enabledClients.contains(client.profile) else {
      throw OAuthError.connectionDisabled
    }
    return connection
  }

  /// The legacy response: `id_token` (with `openid`), `access_token`, `token_type`, and a refresh
  /// token only with `offline_access` and `device` (docs/protocol.md §10).
  private func tokens(
    for user: UserRecord, parameters: RequestParameters, client: ClientConfig
  ) async throws -> [String: Value] {
    let issuer = TokenIssuer(tenant: tenant)
    let requested = Scope.parse(parameters.string("scope") ?? "openid")
    let grant = Grant(
      clientID: client.clientID, userID: user.userID,
      scope: issuer.grantedScope(requested: requested, audience: nil, clientID: client.clientID), audience: nil,
      nonce: nil, organization: nil, authTime: tenant.clock.seconds, includeAuthTime: false)
    let now = tenant.clock.epoch
    var body: [String: Value] = [
      "access_token": .string(try issuer.accessToken(for: grant, user: user, now: now)),
      "token_type": .string("Bearer"),
    ]
    if grant.scope.contains("openid") {
      body["id_token"] = .string(try issuer.idToken(for: grant, user: user, now: now))
    }
    if grant.scope.contains("offline_access"), parameters.string("device") != nil {
      let token = RandomToken.make(bytes: 32)
      let family = RandomToken.make(bytes: 12)
      let now = tenant.clock.seconds
      let lifetime = Double(tenant.fixture.settings.refreshTokenLifetime)
      tenant.transact { $0.issueRefreshToken(token, for: grant, family: family, now: now, lifetime: lifetime) }
      body["refresh_token"] = .string(token)
    }
    return body
  }
}

extension OAuthError {
  /// `/oauth/ro` wrong credentials (docs/protocol.md §3.7, §10).
  static let invalidUserPassword = OAuthError(
    status: .unauthorized, code: "invalid_user_password", description: "Wrong email or password.")
  /// `/oauth/ro` blocked user (docs/protocol.md §10).
  static let legacyBlockedUser = OAuthError(status: .unauthorized, code: "unauthorized", description: "user is blocked")
  /// The legacy MFA code the SDK still recognises (docs/protocol.md §3.6; status UNCONFIRMED).
  static let legacyMFARequired = OAuthError(
    status: .unauthorized, code: "a0.mfa_required", description: "Multifactor authentication required")
  /// A social access token the provider does not know (Auth0's exact text UNCONFIRMED).
  static let invalidSocialAccessToken = OAuthError(
    status: .unauthorized, code: "invalid_request", description: "invalid access_token")
}
