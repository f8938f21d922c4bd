public import AuthFlowJOSE
import Foundation
import Hummingbird
import Logging

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
    private let task: Task<Void, any Error>

    init(baseURL: String, tenant: MockTenant, inProcess: MockInProcessClient, task: Task<Void, any Error>) {
      self.baseURL = baseURL
      self.tenant = tenant
      self.inProcess = inProcess
      self.task = task
    }

    /// Stops the server and waits for it to finish.
    public func stop() async {
      task.cancel()
      _ = await task.result
    }
  }

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
    signingKey: SigningKey? = nil, clock: VirtualClock = VirtualClock()
  ) async throws -> Handle {
    let tenant = try MockTenant(
      fixture: fixture, signingKey: signingKey, clock: clock, limits: configuration.stateLimits)
    let (ready, continuation) = AsyncStream<MockInProcessClient>.makeStream()
    var logger = Logger(label: "authflow.mock")
    // Every problem of a request is an HTTP response; what is left at `.error` is the server's own
    // life cycle, and cancelling it (`stop()`) logs "Waiting on child channel: CancellationError()".
    // The in-process mock is stopped by cancellation by design, so only critical messages show.
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
    let task = Task {
      defer { continuation.finish() }
      try await app.run()
    }
    for await inProcess in ready {
      return Handle(baseURL: tenant.baseURL, tenant: tenant, inProcess: inProcess, task: task)
    }
    let result = await task.result
    if case .failure(let error) = result { throw StartError.didNotStart(String(describing: error)) }
    throw StartError.didNotStart("the server stopped before binding")
  }

  /// Serves the mock until the process receives SIGINT or SIGTERM.
  public static func serve(fixture: TenantFixture, configuration: MockTenantConfiguration) async throws {
    let app = try buildApplication(fixture: fixture, configuration: configuration)
    try await app.runService()
  }
}
