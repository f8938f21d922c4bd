public import AuthFlowJOSE
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Starts and stops the mock tenant: in-process on an ephemeral loopback port (the embedded
/// default tenant), or standalone (`authflow mock`).
public enum MockTenantServer {
  /// A running mock tenant.
  public struct Handle: Sendable {
    /// `http://127.0.0.1:PORT/` (with the trailing slash; equal to `iss` unless overridden).
    public let baseURL: String
    /// The tenant, for direct access to its clock and fixture.
    public let tenant: MockTenant
    /// The same router answering in-process, without the socket (`authflow bench`'s in-process rows).
    public let inProcess: MockInProcessClient
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(
      baseURL: String, tenant: MockTenant, inProcess: MockInProcessClient, group: ServiceGroup,
      task: Task<Void, any Error>
    ) {
      self.baseURL = baseURL
      self.tenant = tenant
      self.inProcess = inProcess
      self.group = group
      self.task = task
    }

    /// Stops the server — gracefully: it stops accepting, closes idle connections and lets the
    /// requests being answered finish (at most ``MockTenantServer/gracefulShutdownLimit``, then
    /// they are cancelled) — and waits for it to finish.
    ///
    /// Not by cancelling the serving task: a connection accepted in the instant of the
    /// cancellation is never handed to the server, and NIO traps on its unfinished writer
    /// ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#3481; found by
    /// fuzz/run when a signal stopped a run while a scenario was connecting).
    public func stop() async {
      await group.triggerGracefulShutdown()
      _ = await task.result
      await tenant.finishDelivery()
    }
  }

  /// How long a stopping mock lets the requests it is answering finish before cancelling them.
  public static let gracefulShutdownLimit: Duration = .seconds(5)

  public enum StartError: Error, CustomStringConvertible {
    case didNotStart(String)

    public var description: String {
      switch self {
      case .didNotStart(let why): return "the mock tenant did not start: \(why)"
      }
    }
  }

  /// Starts the mock in-process on 127.0.0.1, port 0 by default, and returns once it accepts
  /// connections.
  public static func start(
    fixture: TenantFixture, configuration: MockTenantConfiguration = MockTenantConfiguration(),
    signingKey: SigningKey? = nil, keyCache: SigningKeyCache? = nil, clock: VirtualClock = VirtualClock()
  ) async throws -> Handle {
    let tenant = try MockTenant(
      fixture: fixture, signingKey: signingKey, keyCache: keyCache, clock: clock, limits: configuration.stateLimits,
      mailRelay: configuration.mailRelay)
    let (ready, continuation) = AsyncStream<MockInProcessClient>.makeStream()
    var logger = Logger(label: "authflow.mock")
    // Every problem of a request is an HTTP response; what is left at `.error` is the server's own
    // life cycle (a stop past the graceful limit cancels, and logs "Waiting on child channel:
    // CancellationError()"), so only critical messages show.
    logger.logLevel = .critical
    let router = buildMockTenantRouter(
      tenant: tenant, maxBodySize: configuration.maxBodySize, allowRemoteControl: configuration.allowRemoteControl)
    let responder = router.buildResponder()
    let requestLogger = logger
    let app = Application(
      router: router,
      server: configuration.server,
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: "authflow-mock"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        tenant.setBaseURL("http://\(configuration.host):\(port)/")
        continuation.yield(
          MockInProcessClient(
            responder: responder, authority: "\(configuration.host):\(port)", channel: channel, logger: requestLogger))
        continuation.finish()
      },
      logger: logger)
    var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
    groupConfiguration.maximumGracefulShutdownDuration = gracefulShutdownLimit
    let group = ServiceGroup(configuration: groupConfiguration)
    let task = Task {
      defer { continuation.finish() }
      try await group.run()
    }
    for await inProcess in ready {
      return Handle(baseURL: tenant.baseURL, tenant: tenant, inProcess: inProcess, group: group, task: task)
    }
    // A cancelled caller ends the wait for the port at once: the server it may still be starting
    // is stopped here, not left running (its task is not the caller's child).
    if Task.isCancelled {
      await group.triggerGracefulShutdown()
      _ = await task.result
      throw CancellationError()
    }
    let result = await task.result
    if case .failure(let error) = result { throw StartError.didNotStart(String(describing: error)) }
    throw StartError.didNotStart("the server stopped before binding")
  }

  /// Serves the mock until the process receives SIGINT or SIGTERM.
  public static func serve(
    fixture: TenantFixture, configuration: MockTenantConfiguration, keyCache: SigningKeyCache? = nil
  ) async throws {
    let app = try buildApplication(fixture: fixture, configuration: configuration, keyCache: keyCache)
    try await app.runService()
  }
}
