public import AuthFlowCore
public import AuthFlowExpression

/// Where a running tenant's messages are read (`inbox:` of its profile, evaluated), with the
/// patterns that cut a code and a link out of them.
public struct TenantInbox: Sendable {
  /// The capability a tenant with an inbox has.
  public static let capability = "inbox"

  public enum Source: Sendable {
    /// The mock tenant's `/__mock/outbox`.
    case mockOutbox
    /// An `authflow inbox` HTTP API (the run's own receiver, or one elsewhere): its base URL with
    /// a trailing slash, and the bearer token it wants.
    case receiver(url: String, token: String?)
  }

  public var source: Source
  /// `qa+{id}@test.example.com`: what `random_email()` makes for this tenant.
  public var address: String?
  public var codePattern: RegexPattern?
  public var linkPattern: RegexPattern?

  public init(
    source: Source, address: String? = nil, codePattern: RegexPattern? = nil, linkPattern: RegexPattern? = nil
  ) {
    self.source = source
    self.address = address
    self.codePattern = codePattern
    self.linkPattern = linkPattern
  }
}

/// Starts the SMTP receiver a tenant's `inbox.smtp` asks for, for the run: the executable (and
/// the tests) inject the implementation (`AuthFlowInbox`), as they inject the mock's host.
public protocol InboxReceiverHost: Sendable {
  /// Starts a receiver; a receiver that does not start (a port in use, an unreadable
  /// certificate) throws as an environment failure (exit 3).
  func start(_ settings: InboxReceiverSettings) async throws(TenantResolutionError) -> any RunningInboxReceiver
}

/// What `inbox.smtp` says, evaluated.
public struct InboxReceiverSettings: Sendable {
  public var host: String
  public var port: Int
  public var certificatePath: String?
  public var keyPath: String?
  public var requireTLS: Bool
  public var user: String?
  public var password: String?
  public var maxMessageBytes: Int?

  public init(
    host: String, port: Int, certificatePath: String? = nil, keyPath: String? = nil, requireTLS: Bool = false,
    user: String? = nil, password: String? = nil, maxMessageBytes: Int? = nil
  ) {
    self.host = host
    self.port = port
    self.certificatePath = certificatePath
    self.keyPath = keyPath
    self.requireTLS = requireTLS
    self.user = user
    self.password = password
    self.maxMessageBytes = maxMessageBytes
  }
}

/// A receiver started for the run.
public protocol RunningInboxReceiver: Sendable {
  /// Its HTTP API on loopback, `http://127.0.0.1:PORT/`.
  var apiURL: String { get }
  /// The SMTP port it listens on.
  var smtpPort: Int { get }
  /// Stops it and waits for its connections to close.
  func stop() async
}
