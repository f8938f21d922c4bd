public import AuthFlowMail
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `authflow inbox` and the receiver `authflow run` starts for a tenant's `inbox.smtp`: an SMTP
/// receiver and an HTTP API over one ``MessageStore`` — `outbox` reads the messages over the API,
/// and Auth0's Custom Email and Phone Provider Actions (or the legacy SMS gateway) post theirs
/// to its webhooks (docs/messages.md).
public enum InboxServer {
  /// What to serve.
  public struct Configuration: Sendable {
    /// The SMTP receiver; nil serves the HTTP API (and its webhooks) only.
    public var smtp: SMTPConfiguration?
    /// Where the HTTP API listens.
    public var httpHost: String
    public var httpPort: Int
    /// The bearer token the API asks for; required when it listens off loopback.
    public var token: String?
    /// How many messages, bytes and seconds the store keeps.
    public var storeLimits: MessageStoreLimits
    /// The largest webhook body accepted.
    public var maxWebhookBytes: Int

    public init(
      smtp: SMTPConfiguration? = SMTPConfiguration(), httpHost: String = "127.0.0.1", httpPort: Int = 0,
      token: String? = nil, storeLimits: MessageStoreLimits = MessageStoreLimits(),
      maxWebhookBytes: Int = 1024 * 1024
    ) {
      self.smtp = smtp
      self.httpHost = httpHost
      self.httpPort = httpPort
      self.token = token
      self.storeLimits = storeLimits
      self.maxWebhookBytes = maxWebhookBytes
    }
  }

  /// Why an inbox did not start.
  public struct StartError: Error, Sendable, CustomStringConvertible {
    public var description: String

    static func tokenRequired(host: String) -> StartError {
      StartError(
        description:
          "the inbox's HTTP API would listen on \(host), off loopback, without a token: give --token (or the tenant's inbox token) so that nobody else reads the codes"
      )
    }

    static func smtp(_ error: SMTPReceiverError) -> StartError {
      StartError(description: "the SMTP receiver did not start: \(error)")
    }

    static func http(_ why: String) -> StartError {
      StartError(description: "the inbox's HTTP API did not start: \(why)")
    }
  }

  /// A running inbox.
  public struct Handle: Sendable {
    /// `http://HOST:PORT/`, with the trailing slash.
    public let apiURL: String
    /// The SMTP port, when a receiver runs.
    public let smtpPort: Int?
    public let store: MessageStore
    private let receiver: SMTPReceiver?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(
      apiURL: String, smtpPort: Int?, store: MessageStore, receiver: SMTPReceiver?, group: ServiceGroup,
      task: Task<Void, any Error>
    ) {
      self.apiURL = apiURL
      self.smtpPort = smtpPort
      self.store = store
      self.receiver = receiver
      self.group = group
      self.task = task
    }

    /// Stops the receiver and the API, gracefully, and waits for both.
    public func stop() async {
      await receiver?.stop()
      await group.triggerGracefulShutdown()
      _ = await task.result
    }

    /// Runs until the task is cancelled or the API stops (`authflow inbox`, until a signal).
    public func wait() async {
      _ = await task.result
    }
  }

  /// How long a stopping API lets its requests finish.
  static let gracefulShutdownLimit: Duration = .seconds(2)

  /// Starts the receiver and the API; returns once both accept connections.
  public static func start(_ configuration: Configuration) async throws(StartError) -> Handle {
    if configuration.token == nil, !isLoopback(configuration.httpHost) {
      throw .tokenRequired(host: configuration.httpHost)
    }
    let store = MessageStore(limits: configuration.storeLimits)
    var receiver: SMTPReceiver? = nil
    var smtpPort: Int? = nil
    if let smtp = configuration.smtp {
      let started = SMTPReceiver(configuration: smtp, store: store)
      do {
        smtpPort = try await started.start()
      } catch {
        throw .smtp(error)
      }
      receiver = started
    }
    var logger = Logger(label: "authflow.inbox")
    logger.logLevel = .critical
    let router = InboxRoutes(store: store, token: configuration.token, maxWebhookBytes: configuration.maxWebhookBytes)
      .router()
    let (ready, continuation) = AsyncStream<Int>.makeStream()
    let app = Application(
      router: router,
      configuration: .init(
        address: .hostname(configuration.httpHost, port: configuration.httpPort), serverName: "authflow-inbox"),
      onServerRunning: { channel in
        continuation.yield(channel.localAddress?.port ?? configuration.httpPort)
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
    for await port in ready {
      let host = configuration.httpHost.contains(":") ? "[\(configuration.httpHost)]" : configuration.httpHost
      return Handle(
        apiURL: "http://\(host):\(port)/", smtpPort: smtpPort, store: store, receiver: receiver, group: group,
        task: task)
    }
    await receiver?.stop()
    if case .failure(let error) = await task.result { throw .http(String(describing: error)) }
    throw .http("the server stopped before binding")
  }

  /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
