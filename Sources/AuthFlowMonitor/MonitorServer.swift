import Foundation
public import Hummingbird
import Logging
public import ServiceLifecycle

/// The monitor as a service: its schedule loop and its HTTP endpoints in one `ServiceGroup`, which
/// stops both gracefully — the endpoints keep serving (`/readyz` says 503) while the runs in
/// flight get their grace, then stop.
public enum MonitorServer {
  public struct StartError: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// A running monitor.
  public struct Handle: Sendable {
    /// `http://HOST:PORT/`.
    public let url: String
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// Stops gracefully (as SIGTERM does) and waits.
    public func stop() async {
      await group.triggerGracefulShutdown()
      _ = await task.result
    }

    /// Runs until a signal (with `signals`) or ``stop()``.
    public func wait() async throws {
      try await task.value
    }
  }

  /// The schedule loop as a service: a graceful shutdown stops scheduling and waits for the runs.
  struct Scheduling: Service {
    let monitor: Monitor

    func run() async throws {
      await withGracefulShutdownHandler {
        await monitor.run()
      } onGracefulShutdown: {
        monitor.shutdown()
      }
    }
  }

  /// Starts the loaded `monitor` and its endpoints on `host:port` (0: any free port); with
  /// `stopsOnSignals`, SIGTERM and SIGINT stop it gracefully (the command; a test stops it itself).
  public static func start(
    _ monitor: Monitor, host: String, port: Int, stopsOnSignals: Bool = false
  ) async throws(StartError) -> Handle {
    var logger = Logger(label: "authflow.monitor")
    logger.logLevel = .critical
    let (ready, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: MonitorRoutes(monitor: monitor).router(),
      configuration: .init(address: .hostname(host, port: port), serverName: "authflow-monitor"),
      onServerRunning: { channel in
        continuation.yield(channel.localAddress?.port ?? port)
        continuation.finish()
      },
      logger: logger)
    // Services stop in reverse order: the schedule first (its runs get their grace while the
    // endpoints still answer), then the endpoints.
    var configuration = ServiceGroupConfiguration(
      services: [app, Scheduling(monitor: monitor)],
      gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [],
      logger: logger)
    configuration.maximumGracefulShutdownDuration = monitor.configuration.grace + .seconds(60)
    let group = ServiceGroup(configuration: configuration)
    let task = Task {
      defer { continuation.finish() }
      try await group.run()
    }
    for await bound in ready {
      let shown = host.contains(":") ? "[\(host)]" : host
      return Handle(url: "http://\(shown):\(bound)/", group: group, task: task)
    }
    monitor.shutdown()
    if case .failure(let error) = await task.result {
      throw StartError(description: "the monitor's HTTP endpoints did not start on \(host):\(port): \(error)")
    }
    throw StartError(description: "the monitor's HTTP endpoints stopped before they listened")
  }
}
