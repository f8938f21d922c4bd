public import Hummingbird
import Logging

/// The router of the mock tenant: every endpoint of docs/protocol.md the mock implements, plus
/// `/__mock/` test control. Testable in-process with `app.test(.router)`.
public func buildMockTenantRouter(
  tenant: MockTenant, maxBodySize: Int = MockTenantConfiguration().maxBodySize, allowRemoteControl: Bool = false
) -> Router<BasicRequestContext> {
  let router = Router(context: BasicRequestContext.self)
  // Middleware applies to the routes registered after it.
  if !allowRemoteControl { router.add(middleware: ControlGuardMiddleware(tenant: tenant)) }
  router.add(middleware: RequestSizeMiddleware(maxBodySize: maxBodySize))
  router.add(middleware: FaultMiddleware(tenant: tenant))
  router.add(middleware: RateLimitMiddleware(tenant: tenant))
  DiscoveryRoutes(tenant: tenant).register(on: router)
  AuthorizeRoutes(tenant: tenant).register(on: router)
  UniversalLoginRoutes(tenant: tenant).register(on: router)
  OtherLoginPageRoutes(tenant: tenant).register(on: router)
  TokenRoutes(tenant: tenant).register(on: router)
  UserInfoRoutes(tenant: tenant).register(on: router)
  RevokeRoutes(tenant: tenant).register(on: router)
  LogoutRoutes(tenant: tenant).register(on: router)
  PasswordlessRoutes(tenant: tenant).register(on: router)
  OTPChallengeRoutes(tenant: tenant).register(on: router)
  DBConnectionRoutes(tenant: tenant).register(on: router)
  UniversalLoginMFARoutes(tenant: tenant).register(on: router)
  UniversalLoginPasswordlessRoutes(tenant: tenant).register(on: router)
  TicketRoutes(tenant: tenant).register(on: router)
  MFARoutes(tenant: tenant).register(on: router)
  MockMFAControlRoutes(tenant: tenant).register(on: router)
  OpenAPIRoutes().register(on: router)
  FaultRoutes(tenant: tenant).register(on: router)
  MockControlRoutes(tenant: tenant).register(on: router)
  PasskeyRoutes(tenant: tenant).register(on: router)
  ManagementUserRoutes(tenant: tenant).register(on: router)
  ManagementOrganizationRoutes(tenant: tenant).register(on: router)
  OrganizationPromptRoutes(tenant: tenant).register(on: router)
  OrganizationSelectionRoutes(tenant: tenant).register(on: router)
  MockSignRoutes(tenant: tenant).register(on: router)
  MyAccountRoutes(tenant: tenant).register(on: router)
  SocialLoginRoutes(tenant: tenant).register(on: router)
  DeviceCodeRoutes(tenant: tenant).register(on: router)
  ActivateRoutes(tenant: tenant).register(on: router)
  RegistrationRoutes(tenant: tenant).register(on: router)
  LegacyAuthRoutes(tenant: tenant).register(on: router)
  BackchannelRoutes(tenant: tenant).register(on: router)
  MockCIBAControlRoutes(tenant: tenant).register(on: router)
  PushedAuthorizationRoutes(tenant: tenant).register(on: router)
  return router
}

/// The mock tenant as a Hummingbird application. When the port is 0 the tenant's base URL is set
/// once the server has bound.
public func buildApplication(tenant: MockTenant, configuration: MockTenantConfiguration) -> some ApplicationProtocol {
  var logger = Logger(label: "authflow.mock")
  logger.logLevel = .warning
  return Application(
    router: buildMockTenantRouter(
      tenant: tenant, maxBodySize: configuration.maxBodySize, allowRemoteControl: configuration.allowRemoteControl),
    server: configuration.server,
    configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "authflow-mock"),
    onServerRunning: { channel in
      let port = channel.localAddress?.port ?? configuration.port
      tenant.setBaseURL("http://\(configuration.host):\(port)/")
    },
    logger: logger)
}

/// Builds a tenant from a fixture and its application.
public func buildApplication(
  fixture: TenantFixture, configuration: MockTenantConfiguration, keyCache: SigningKeyCache? = nil
) throws
  -> some ApplicationProtocol
{
  let tenant = try MockTenant(
    fixture: fixture, baseURL: "http://\(configuration.host):\(configuration.port)/", keyCache: keyCache,
    limits: configuration.stateLimits)
  return buildApplication(tenant: tenant, configuration: configuration)
}
