public import Hummingbird
import Logging

/// The router of the mock tenant: every endpoint of docs/protocol.md the mock implements, plus
/// `/__mock/` test control, as the operations of its OpenAPI document
/// (`Resources/mock-openapi.json`) bound to their handlers; a document and handlers that do not
/// match stop it here. Testable in-process with `app.test(.router)`.
public func buildMockTenantRouter(
  tenant: MockTenant, maxBodySize: Int = MockTenantConfiguration().maxBodySize, allowRemoteControl: Bool = false
) -> Router<BasicRequestContext> {
  let router = Router(context: BasicRequestContext.self)
  // Middleware applies to the routes registered after it.
  if !allowRemoteControl { router.add(middleware: ControlGuardMiddleware(tenant: tenant)) }
  router.add(middleware: RequestSizeMiddleware(maxBodySize: maxBodySize))
  router.add(middleware: FaultMiddleware(tenant: tenant))
  router.add(middleware: RateLimitMiddleware(tenant: tenant))
  if tenant.relaysMail { router.add(middleware: MailDeliveryMiddleware(tenant: tenant)) }
  // The routes are the operations of the OpenAPI document, each bound to its handler by operationId.
  do {
    try MockOperations.bind(mockHandlerTables(tenant: tenant), to: router)
  } catch {
    preconditionFailure("\(error)")
  }
  return router
}

/// Every family's handler table, keyed by the `operationId` of the operation each handler answers in
/// the OpenAPI document (``MockOperations``).
func mockHandlerTables(tenant: MockTenant) -> [[String: MockHandler]] {
  [
    DiscoveryRoutes(tenant: tenant).handlers,
    AuthorizeRoutes(tenant: tenant).handlers,
    UniversalLoginRoutes(tenant: tenant).handlers,
    OtherLoginPageRoutes(tenant: tenant).handlers,
    TokenRoutes(tenant: tenant).handlers,
    UserInfoRoutes(tenant: tenant).handlers,
    RevokeRoutes(tenant: tenant).handlers,
    LogoutRoutes(tenant: tenant).handlers,
    PasswordlessRoutes(tenant: tenant).handlers,
    OTPChallengeRoutes(tenant: tenant).handlers,
    DBConnectionRoutes(tenant: tenant).handlers,
    UniversalLoginMFARoutes(tenant: tenant).handlers,
    UniversalLoginPasswordlessRoutes(tenant: tenant).handlers,
    TicketRoutes(tenant: tenant).handlers,
    MFARoutes(tenant: tenant).handlers,
    MockMFAControlRoutes(tenant: tenant).handlers,
    OpenAPIRoutes().handlers,
    FaultRoutes(tenant: tenant).handlers,
    MockControlRoutes(tenant: tenant).handlers,
    PasskeyRoutes(tenant: tenant).handlers,
    ManagementUserRoutes(tenant: tenant).handlers,
    ManagementOrganizationRoutes(tenant: tenant).handlers,
    OrganizationPromptRoutes(tenant: tenant).handlers,
    OrganizationSelectionRoutes(tenant: tenant).handlers,
    MockSignRoutes(tenant: tenant).handlers,
    MyAccountRoutes(tenant: tenant).handlers,
    SocialLoginRoutes(tenant: tenant).handlers,
    DeviceCodeRoutes(tenant: tenant).handlers,
    ActivateRoutes(tenant: tenant).handlers,
    RegistrationRoutes(tenant: tenant).handlers,
    LegacyAuthRoutes(tenant: tenant).handlers,
    BackchannelRoutes(tenant: tenant).handlers,
    MockBackchannelControlRoutes(tenant: tenant).handlers,
    PushedAuthorizationRoutes(tenant: tenant).handlers,
  ]
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
    limits: configuration.stateLimits, mailRelay: configuration.mailRelay)
  return buildApplication(tenant: tenant, configuration: configuration)
}
