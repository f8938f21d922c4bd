/// How an ``SMTPReceiver`` listens, what it advertises and the limits it enforces.
public struct SMTPConfiguration: Sendable, Hashable {
  /// A certificate chain and its private key, both PEM files, for `STARTTLS`.
  public struct TLS: Sendable, Hashable {
    /// The PEM file holding the certificate chain, leaf first.
    public var certificateChainPath: String
    /// The PEM file holding the private key.
    public var privateKeyPath: String

    /// Creates a TLS configuration from two PEM file paths.
    public init(certificateChainPath: String, privateKeyPath: String) {
      self.certificateChainPath = certificateChainPath
      self.privateKeyPath = privateKeyPath
    }
  }

  /// The one user and password that `AUTH PLAIN` and `AUTH LOGIN` accept; printed without the password.
  public struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
      self.user = user
      self.password = password
    }

    /// The user name and a placeholder for the password.
    public var description: String { "\(user):<redacted>" }
    /// The same as ``description``.
    public var debugDescription: String { description }
  }

  /// The address to bind (default `127.0.0.1`).
  public var host: String
  /// The port to bind; `0` picks an ephemeral one, which ``SMTPReceiver/start()`` returns.
  public var port: Int
  /// The name in the greeting and the `EHLO` reply (default `authflow.invalid`).
  public var hostname: String
  /// The largest message accepted, advertised as `SIZE` (default 10 MiB).
  public var maxMessageBytes: Int
  /// The most `RCPT TO` per transaction (default 100).
  public var maxRecipients: Int
  /// The most simultaneous connections; past it a client gets `421` (default 64).
  public var maxConnections: Int
  /// The most rejected commands per connection before `421` and close (default 10).
  public var maxBadCommands: Int
  /// How long a client may stay silent between commands (default 60 s).
  public var commandTimeout: Duration
  /// How long the whole `DATA` phase may take (default 120 s).
  public var dataTimeout: Duration
  /// The certificate for `STARTTLS`; without it `STARTTLS` is not offered.
  public var tls: TLS?
  /// Whether `MAIL` is refused until the session runs over TLS.
  public var requireTLS: Bool
  /// The credentials `AUTH` accepts; when set, `MAIL` requires authentication.
  public var credentials: Credentials?
  /// Whether `AUTH` is offered on a connection that is not encrypted.
  public var allowPlaintextAuth: Bool

  /// Creates a configuration; every default suits a loopback mail catcher.
  public init(
    host: String = "127.0.0.1", port: Int = 0, hostname: String = "authflow.invalid",
    maxMessageBytes: Int = 10 * 1024 * 1024, maxRecipients: Int = 100, maxConnections: Int = 64,
    maxBadCommands: Int = 10, commandTimeout: Duration = .seconds(60), dataTimeout: Duration = .seconds(120),
    tls: TLS? = nil, requireTLS: Bool = false, credentials: Credentials? = nil, allowPlaintextAuth: Bool = false
  ) {
    self.host = host
    self.port = port
    self.hostname = hostname
    self.maxMessageBytes = maxMessageBytes
    self.maxRecipients = maxRecipients
    self.maxConnections = maxConnections
    self.maxBadCommands = maxBadCommands
    self.commandTimeout = commandTimeout
    self.dataTimeout = dataTimeout
    self.tls = tls
    self.requireTLS = requireTLS
    self.credentials = credentials
    self.allowPlaintextAuth = allowPlaintextAuth
  }
}

extension SMTPConfiguration {
  /// The longest command line accepted, without its CRLF: RFC 5321's 512 octets with a margin for
  /// `AUTH` responses and long addresses.
  static let commandLineLimit = 2048
  /// The longest text line in `DATA`, without its CRLF (RFC 5321 §4.5.3.1.6: 1000 with CRLF).
  static let textLineLimit = 1000
  /// How far past a line limit bytes are discarded while looking for the line's end before the
  /// connection is closed.
  static let overlongLineDiscardLimit = 32 * 1024
}
