import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

extension TokenRoutes {
  /// `authorization_code`: single-use code, bound to client, redirect_uri and PKCE challenge.
  func authorizationCode(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let code = parameters.string("code") else { throw OAuthError.missingParameter("code") }
    // `/authorize` always binds a redirect_uri, so the exchange must repeat it (RFC 6749 §4.1.3).
    guard let redirectURI = parameters.string("redirect_uri") else { throw OAuthError.missingParameter("redirect_uri") }
    // Taken, not read: a code is consumed by its first exchange, successful or not, and marked
    // redeemed with the refresh-token family it starts, in the same step; a second use of a
    // redeemed code revokes what the first one issued (RFC 6749 §4.1.2), in that step too.
    let family = RandomToken.make(bytes: 12)
    let now = tenant.clock.seconds
    let lifetime = Double(tenant.fixture.settings.refreshTokenLifetime)
    let redemption = tenant.transact { $0.redeemCode(code, family: family, now: now, familyLifetime: lifetime) }
    guard case .redeemed(let issued) = redemption else { throw OAuthError.invalidCode }
    guard issued.request.clientID == client.clientID, redirectURI == issued.request.redirectURI else {
      throw OAuthError.invalidCode
    }
    try CodeExchangeProof.check(parameters.string("code_verifier"), for: issued.request, client: client)
    let request = issued.request
    let grant = Grant(
      clientID: client.clientID, userID: issued.userID,
      scope: issuer.grantedScope(requested: request.scope, audience: request.audience, clientID: client.clientID),
      audience: request.audience,
      nonce: request.nonce, organization: request.organization, authTime: issued.authTime,
      includeAuthTime: request.maxAge != nil)
    return try await issuer.response(
      for: grant, client: client, requestedScope: request.scope, issueRefreshToken: true, family: family)
  }

  /// `refresh_token`: rotation with reuse detection, MRRT audience/scope rules, session transfer.
  func refreshToken(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let token = parameters.string("refresh_token") else { throw OAuthError.missingParameter("refresh_token") }
    let settings = tenant.fixture.settings
    let now = tenant.clock.seconds
    let successor = RandomToken.make(bytes: 32)
    // Exchanged, rotated and (on reuse) the family revoked in one step.
    let outcome = tenant.transact {
      $0.rotateRefreshToken(
        token, clientID: client.clientID, now: now, rotate: settings.refreshTokenRotation,
        reuseLeeway: Double(settings.refreshTokenReuseLeeway), newToken: successor)
    }
    guard case .accepted(var grant, let newToken) = outcome else { throw OAuthError.invalidRefreshToken }
    guard let userID = grant.userID, let user = tenant.user(id: userID) else {
      throw OAuthError.deletedUserRefreshToken
    }
    // A blocked user's refresh tokens stop working (the answer of every other login path).
    if user.blocked { throw OAuthError.blockedUser }
    let requested = parameters.string("scope").map(Scope.parse)
    if let audience = parameters.string("audience"), audience != grant.audience {
      if audience == "urn:\(tenant.host):session_transfer" {
        return try await sessionTransfer(grant: grant, client: client, refreshToken: newToken)
      }
      guard let policy = client.refreshTokenPolicies.first(where: { tenant.wireAudience($0.audience) == audience }),
        let api = tenant.api(audience: audience)
      else { throw OAuthError.audienceNotAllowed(audience) }
      // A refresh token is user context: a Management API policy yields current-user scopes only.
      let allowed = Set(policy.scope.filter { TokenIssuer.userContextAllows($0, api: api) })
        .union(Scope.oidc.filter { grant.scope.contains($0) })
      grant.audience = audience
      grant.scope = (requested ?? policy.scope).filter { allowed.contains($0) }
      if !grant.scope.contains("openid"), grant.scope.isEmpty == false || requested == nil {
        grant.scope.insert("openid", at: 0)
      }
    } else if let requested {
      grant.scope = requested.filter { grant.scope.contains($0) }
    }
    grant.nonce = nil
    grant.includeAuthTime = false
    var body = try await issuer.response(
      for: grant, client: client, requestedScope: requested ?? grant.scope, issueRefreshToken: false,
      refreshToken: newToken)
    if requested == nil { body["scope"] = .string(Scope.join(grant.scope)) }
    return body
  }

  private func sessionTransfer(
    grant: Grant, client: ClientConfig, refreshToken: String?
  ) async throws -> [String:
    Value]
  {
    let token = RandomToken.make(bytes: 32)
    if let userID = grant.userID {
      // Single use, 1-minute lifetime (docs/protocol.md §3.2); redeemed at `/authorize`.
      let expiresAt = tenant.clock.seconds + 60
      let transfer = SessionTransfer(userID: userID, clientID: client.clientID)
      tenant.transact { $0.issueSessionTransfer(token, transfer, expiresAt: expiresAt) }
    }
    var body: [String: Value] = [
      "access_token": .string(token),
      "issued_token_type": .string("urn:auth0:params:oauth:token-type:session_transfer_token"),
      "token_type": .string("N_A"), "expires_in": .int(60),
    ]
    // Whether Auth0 always includes `id_token` here is UNCONFIRMED (docs/protocol.md §3.2); Auth0.swift's
    // SSOCredentials requires it, so the mock includes it.
    if let userID = grant.userID, let user = tenant.user(id: userID) {
      var idGrant = grant
      idGrant.nonce = nil
      body["id_token"] = .string(try issuer.idToken(for: idGrant, user: user, now: tenant.clock.epoch))
    }
    if let refreshToken { body["refresh_token"] = .string(refreshToken) }
    return body
  }

  /// `client_credentials`: confidential clients, for an API the client was granted.
  func clientCredentials(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let audience = parameters.string("audience") else { throw OAuthError.missingParameter("audience") }
    guard let api = tenant.api(audience: audience) else { throw OAuthError.serviceNotEnabled(audience) }
    let granted = client.apiGrants[audience] ?? client.apiGrants[api.kind == .custom ? audience : api.kind.rawValue]
    guard let granted else { throw OAuthError.clientNotGranted(audience) }
    var scope = granted
    if let requested = parameters.string("scope").map(Scope.parse) { scope = requested.filter(granted.contains) }
    var organization: OrganizationConfig?
    if let reference = parameters.string("organization") {
      guard let found = tenant.organization(reference) else {
        throw OAuthError.organizationNotFound(reference)
      }
      organization = found
    }
    let grant = Grant(
      clientID: client.clientID, userID: nil, scope: scope, audience: audience, nonce: nil,
      organization: organization, authTime: nil, includeAuthTime: false)
    var body = try await issuer.response(for: grant, client: client, requestedScope: scope, issueRefreshToken: false)
    body["scope"] = .string(Scope.join(scope))
    return body
  }

  /// `password` and password-realm: database login, with blocked users, brute-force protection and MFA.
  func password(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    guard let username = parameters.string("username") else { throw OAuthError.missingParameter("username") }
    guard let password = parameters.string("password") else { throw OAuthError.missingParameter("password") }
    let realm = parameters.string("realm") ?? "Username-Password-Authentication"
    guard let connection = tenant.fixture.connection(named: realm), connection.strategy == .database else {
      throw OAuthError.connectionNotFound
    }
    guard connection.enabledClients.isEmpty || connection.enabledClients.contains(client.profile) else {
      throw OAuthError.connectionDisabled
    }
    try checkAudience(parameters.string("audience"))
    if BotDetection(tenant: tenant).isSuspicious(identifier: username) { throw OAuthError.requiresVerification }
    switch BruteForce(tenant: tenant).check(password, identifier: username, connection: realm, ip: parameters.clientIP)
    {
    case .blocked: throw OAuthError.tooManyAttempts
    case .wrong: throw OAuthError.wrongCredentials
    case .accepted(let user): return try await login(user, parameters: parameters, client: client)
    }
  }

  /// Issues tokens for a user who just authenticated directly (password, OTP, passkey), unless MFA
  /// is due; `organization` adds its claims (a passkey ceremony that named one).
  func login(
    _ user: UserRecord, parameters: RequestParameters, client: ClientConfig, skipMFA: Bool = false,
    organization: OrganizationConfig? = nil
  )
    async throws -> [String: Value]
  {
    if user.blocked { throw OAuthError.blockedUser }
    let requested = requestedScope(parameters)
    let audience = parameters.string("audience")
    let grant = Grant(
      clientID: client.clientID, userID: user.userID,
      scope: issuer.grantedScope(requested: requested, audience: audience), audience: audience, nonce: nil,
      organization: organization, authTime: tenant.clock.seconds, includeAuthTime: false)
    if !skipMFA, !user.mfa.isEmpty {
      let mfaToken = RandomToken.make(bytes: 32)
      let expiresAt = tenant.clock.seconds + MFATokens.lifetime
      tenant.transact { $0.issueMFAToken(mfaToken, for: grant, expiresAt: expiresAt) }
      throw OAuthError.mfaRequired(token: mfaToken, requirements: Self.mfaRequirements(of: user))
    }
    return try await issuer.response(for: grant, client: client, requestedScope: requested, issueRefreshToken: true)
  }

  /// Passwordless OTP (classic): `username` + `otp` + `realm` (`email`|`sms`), codes from `/passwordless/start`.
  /// With `auth_session` instead: the DB-connection OTP of `/otp/challenge` (docs/protocol.md §4.4).
  func passwordless(_ parameters: RequestParameters, client: ClientConfig) async throws -> [String: Value] {
    if parameters.has("auth_session") { return try await otpChallengeLogin(parameters, client: client) }
    guard let username = parameters.string("username") else { throw OAuthError.missingParameter("username") }
    guard let otp = parameters.string("otp") else { throw OAuthError.missingParameter("otp") }
    let realm = parameters.string("realm") ?? "email"
    guard let connection = tenant.fixture.connection(named: realm),
      connection.strategy == .email || connection.strategy == .sms
    else { throw OAuthError.connectionNotFound }
    let wrong = connection.strategy == .email ? OAuthError.wrongEmailCode : OAuthError.wrongPhoneCode
    let codes = PasswordlessCodes(tenant: tenant)
    switch await codes.check(otp, connection: realm, address: username) {
    case .accepted: break
    case .wrong: throw wrong
    case .exhausted: throw OAuthError.tooManyOTPAttempts
    }
    let user = await codes.user(connection: connection, address: username)
    try checkAudience(parameters.string("audience"))
    return try await login(user, parameters: parameters, client: client, skipMFA: true)
  }
}
