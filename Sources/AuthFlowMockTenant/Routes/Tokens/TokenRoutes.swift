import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `POST /oauth/token` (docs/protocol.md §3): body parsing, client authentication, allowed grants, then the
/// grant.
struct TokenRoutes {
  let tenant: MockTenant

  enum GrantType {
    static let authorizationCode = "authorization_code"
    static let refreshToken = "refresh_token"
    static let clientCredentials = "client_credentials"
    static let password = "password"
    static let passwordRealm = "http://auth0.com/oauth/grant-type/password-realm"
    static let passwordlessOTP = "http://auth0.com/oauth/grant-type/passwordless/otp"
    static let mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
    static let mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
    static let mfaRecoveryCode = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
    static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let webauthn = "urn:okta:params:oauth:grant-type:webauthn"
    static let deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    static let ciba = "urn:openid:params:grant-type:ciba"
  }

  static let supportedGrantTypes = [
    GrantType.authorizationCode, GrantType.refreshToken, GrantType.clientCredentials, GrantType.password,
    GrantType.passwordRealm, GrantType.passwordlessOTP, GrantType.mfaOTP, GrantType.mfaOOB,
    GrantType.mfaRecoveryCode, GrantType.tokenExchange, GrantType.webauthn, GrantType.deviceCode, GrantType.ciba,
  ]

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "token": { request, context in
        await OAuthError.respond { try await token(request, context: context) }
      }
    ]
  }

  private func token(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard var parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    guard let grantType = parameters.string("grant_type") else { throw OAuthError.missingParameter("grant_type") }
    let client = try ClientAuthentication.authenticate(parameters, in: tenant)
    parameters.trustForwardedFor(client: client)
    guard Self.supportedGrantTypes.contains(grantType) else { throw OAuthError.unsupportedGrantType(grantType) }
    let allowed = grantType == GrantType.password ? GrantType.passwordRealm : grantType
    guard client.grantTypes.contains(grantType) || client.grantTypes.contains(allowed) else {
      throw OAuthError.grantNotAllowed(grantType)
    }
    let body: [String: Value]
    switch grantType {
    case GrantType.authorizationCode: body = try await authorizationCode(parameters, client: client)
    case GrantType.refreshToken: body = try await refreshToken(parameters, client: client)
    case GrantType.clientCredentials: body = try await clientCredentials(parameters, client: client)
    case GrantType.password, GrantType.passwordRealm: body = try await password(parameters, client: client)
    case GrantType.passwordlessOTP: body = try await passwordless(parameters, client: client)
    case GrantType.mfaOTP: body = try await mfaOTP(parameters, client: client)
    case GrantType.mfaOOB: body = try await mfaOOB(parameters, client: client)
    case GrantType.mfaRecoveryCode: body = try await mfaRecoveryCode(parameters, client: client)
    case GrantType.tokenExchange: body = try await tokenExchange(parameters, client: client)
    case GrantType.webauthn: body = try await webauthn(parameters, client: client)
    case GrantType.deviceCode: body = try await deviceCode(parameters, client: client)
    case GrantType.ciba: body = try await ciba(parameters, client: client)
    default: throw OAuthError.unsupportedGrantType(grantType)
    }
    return Responses.json(.object(body))
  }

  var issuer: TokenIssuer { TokenIssuer(tenant: tenant) }

  /// The scope of a direct (non-redirect) login: `openid` is assumed when absent.
  func requestedScope(_ parameters: RequestParameters) -> [String] {
    Scope.parse(parameters.string("scope") ?? "openid")
  }

  /// Checks the audience of a direct grant.
  func checkAudience(_ audience: String?) throws(OAuthError) {
    if let audience, tenant.api(audience: audience) == nil { throw OAuthError.serviceNotEnabled(audience) }
  }
}

/// Who is calling `/oauth/token` and `/oauth/revoke`.
enum ClientAuthentication {
  /// The client, from the body or HTTP Basic; confidential clients must present their secret.
  static func authenticate(
    _ parameters: RequestParameters, in fixture: TenantFixture
  ) throws(OAuthError)
    -> ClientConfig
  {
    try authenticate(parameters, lookup: fixture.client(id:))
  }

  /// A client's request to an endpoint of `grant` (`/oauth/device/code`, `/bc-authorize`,
  /// `/passkey/*`, the legacy endpoints): the body read, the client authenticated, and `grant`
  /// among the client's grant types.
  static func request(
    _ request: Request, context: BasicRequestContext, tenant: MockTenant, grant: String
  ) async throws(OAuthError) -> (RequestParameters, ClientConfig) {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    let client = try authenticate(parameters, in: tenant)
    guard client.grantTypes.contains(grant) else { throw OAuthError.grantNotAllowed(grant) }
    return (parameters, client)
  }

  /// The same, among the fixture's clients and those registered at `/oidc/register`.
  static func authenticate(_ parameters: RequestParameters, in tenant: MockTenant) throws(OAuthError) -> ClientConfig {
    try authenticate(parameters, lookup: tenant.client(id:))
  }

  private static func authenticate(
    _ parameters: RequestParameters, lookup: (String) -> ClientConfig?
  ) throws(OAuthError) -> ClientConfig {
    // RFC 6749 §3.1: a parameter given twice is `invalid_request`, not "the first one wins".
    if let repeated = parameters.repeatedParameter { throw OAuthError.repeatedParameter(repeated) }
    let basic = parameters.basicCredentials
    // RFC 6749 §2.3: one authentication method a request; a Basic header and a body secret are two.
    if basic != nil, parameters.string("client_secret") != nil || parameters.string("client_assertion") != nil {
      throw OAuthError.multipleClientAuthentication
    }
    guard let clientID = basic?.id ?? parameters.string("client_id") else { throw OAuthError.missingClientID }
    // Two identities in one request (Basic for one client, the body for another): neither counts.
    if let basic, let bodyID = parameters.string("client_id"), bodyID != basic.id {
      throw OAuthError.unauthorizedClient
    }
    guard let client = lookup(clientID) else { throw OAuthError.unauthorizedClient }
    if let expected = client.clientSecret {
      guard let secret = basic?.secret ?? parameters.string("client_secret"),
        RandomToken.constantTimeEquals(secret, expected)
      else { throw OAuthError.unauthorizedClient }
    }
    return client
  }
}
