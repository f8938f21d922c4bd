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

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "deviceCode": { request, context in
        await OAuthError.respond { try await deviceCode(request, context: context) }
      }
    ]
  }

  private func deviceCode(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let (parameters, client) = try await ClientAuthentication.request(
      request, context: context, tenant: tenant, grant: TokenRoutes.GrantType.deviceCode)
    let audience = parameters.string("audience")
    if let audience, tenant.api(audience: audience) == nil { throw OAuthError.serviceNotEnabled(audience) }
    let now = tenant.clock.seconds
    var authorization = DeviceAuthorization(
      deviceCode: RandomToken.make(bytes: 32), userCode: UserCode.make(), clientID: client.clientID,
      scope: Scope.parse(parameters.string("scope") ?? ""), audience: audience,
      expiresAt: now + Double(Self.lifetime), interval: Double(Self.interval))
    // A user code taken by a live code is drawn again (20^8 codes: a retry is rare, ten are enough).
    var stored = tenant.transact { $0.startDeviceAuthorization(authorization, now: now) }
    for _ in 0..<10 where !stored {
      authorization.userCode = UserCode.make()
      stored = tenant.transact { $0.startDeviceAuthorization(authorization, now: now) }
    }
    guard stored else { throw OAuthError.serverError }
    let userCode = authorization.userCode
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
