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
    /// A reader the ``InboxHost`` made (a mailbox over IMAP).
    case reader(any InboxMessageReader)
  }

  /// A pattern of `inbox.patterns`, as written and compiled.
  public struct Pattern: Sendable {
    public var text: String
    public var compiled: RegexPattern

    public init?(_ text: String) {
      guard let compiled = try? RegexPattern(text) else { return nil }
      self.text = text
      self.compiled = compiled
    }
  }

  public var source: Source
  /// `qa+{id}@test.example.com`: what `random_email()` makes for this tenant.
  public var address: String?
  public var codePattern: Pattern?
  public var linkPattern: Pattern?

  public init(
    source: Source, address: String? = nil, codePattern: Pattern? = nil, linkPattern: Pattern? = nil
  ) {
    self.source = source
    self.address = address
    self.codePattern = codePattern
    self.linkPattern = linkPattern
  }
}

/// What the runtime cannot do without a mail stack: start the SMTP receiver a tenant's
/// `inbox.smtp` asks for, and read a mailbox over IMAP (`inbox.imap`). The run session injects
/// the implementation (`RunInboxHost`, on `AuthFlowInbox` and `AuthFlowMail`), as it injects the
/// mock's host.
public protocol InboxHost: Sendable {
  /// Starts a receiver; a receiver that does not start (a port in use, an unreadable
  /// certificate) throws as an environment failure (exit 3).
  func start(_ settings: InboxReceiverSettings) async throws(TenantResolutionError) -> any RunningInboxReceiver

  /// A reader of the mailbox `settings` name (it connects when it reads).
  func imapReader(_ settings: IMAPReaderSettings) -> any InboxMessageReader

  /// Sends a plain-text message over SMTP to `host:port` (`doctor --probe`'s test message).
  func sendTestMessage(
    to address: String, subject: String, text: String, host: String, port: Int
  ) async throws(InboxReadFailure)
}

/// Reads the messages to an address from a mailbox that is not an HTTP API.
public protocol InboxMessageReader: Sendable {
  /// Messages to `address`, oldest first, each with `id`, `channel`, `to`, `from`, `subject`,
  /// `body` and `sent_at`; an unreachable or misbehaving mailbox throws its reason.
  func messages(to address: String) async throws(InboxReadFailure) -> [[String: Value]]

  /// The id of the newest message in the mailbox, to anyone (0 when it is empty): a message that
  /// arrives later has a larger `id` (`outbox`'s `after:`).
  func lastID() async throws(InboxReadFailure) -> Int
}

/// Why a mailbox could not be read: an environment failure of the step that read it.
public struct InboxReadFailure: Error, Sendable {
  public var message: String
  /// The mailbox was reached and refused the credentials (a profile to fix, not an outage).
  public var credentialsRefused: Bool

  public init(_ message: String, credentialsRefused: Bool = false) {
    self.message = message
    self.credentialsRefused = credentialsRefused
  }
}

/// What `inbox.imap` says, evaluated.
public struct IMAPReaderSettings: Sendable {
  public enum Security: String, Sendable { case tls, starttls, plain }

  public var host: String
  public var port: Int
  public var security: Security
  public var user: String
  public var password: String
  public var mailbox: String
  /// A CA certificate (PEM) path; the system's roots when nil.
  public var caPath: String?

  public init(
    host: String, port: Int, security: Security, user: String, password: String, mailbox: String = "INBOX",
    caPath: String? = nil
  ) {
    self.host = host
    self.port = port
    self.security = security
    self.user = user
    self.password = password
    self.mailbox = mailbox
    self.caPath = caPath
  }
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
