import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `POST /oauth/device/code` (RFC 8628 §3.1, as Auth0 does it): a device code and a user code for
/// a client whose grant types include the device grant.
struct DeviceCodeRoutes {
  let tenant: MockTenant

  /// Lifetime of device and user codes (Auth0: 900 s).
  static let lifetime = 900
  /// Seconds between polls (Auth0: 5).
  static let interval = 5

  func register(on router: Router<BasicRequestContext>) {
    router.post("/oauth/device/code") { request, context in
      do {
        return try await deviceCode(request, context: context)
      } catch let error as OAuthError {
        return error.response
      } catch {
        return OAuthError.serverError.response
      }
    }
  }

  private func deviceCode(_ request: Request, context: BasicRequestContext) async throws -> Response {
    guard let parameters = await RequestParameters.body(of: request, context: context) else {
      throw OAuthError.malformedBody
    }
    let client = try ClientAuthentication.authenticate(parameters, in: tenant)
    guard client.grantTypes.contains(TokenRoutes.GrantType.deviceCode) else {
      throw OAuthError.grantNotAllowed(TokenRoutes.GrantType.deviceCode)
    }
    let audience = parameters.string("audience")
    if let audience, tenant.api(audience: audience) == nil { throw OAuthError.serviceNotEnabled(audience) }
    let now = tenant.clock.seconds
    var userCode = UserCode.make()
    while tenant.withState({ $0.deviceCodes.contains(userCode: userCode) }) { userCode = UserCode.make() }
    let authorization = DeviceAuthorization(
      deviceCode: RandomToken.make(bytes: 32), userCode: userCode, clientID: client.clientID,
      scope: Scope.parse(parameters.string("scope") ?? ""), audience: audience,
      expiresAt: now + Double(Self.lifetime), interval: Double(Self.interval))
    tenant.withState { $0.deviceCodes.insert(authorization, now: now) }
    let verification = tenant.baseURL + "activate"
    return Responses.json(
      .object([
        "device_code": .string(authorization.deviceCode),
        "user_code": .string(userCode),
        "verification_uri": .string(verification),
        "verification_uri_complete": .string(verification + "?user_code=" + FormEncoding.escape(userCode)),
        "expires_in": .int(Self.lifetime),
        "interval": .int(Self.interval),
      ]))
  }
}
