/// Where and how an ``IMAPClient`` reaches a mailbox.
///
/// The password is never printed: `description` and `debugDescription` redact it.
public struct IMAPConfiguration: Sendable {
  /// How the connection is protected.
  public enum Security: Sendable, Hashable {
    /// TLS from the first byte (IMAPS, usually port 993).
    case implicitTLS
    /// Plaintext greeting, then `STARTTLS` before anything else is sent (usually port 143).
    case startTLS
    /// No TLS. Allowed only to a loopback host unless ``IMAPConfiguration/allowPlaintext`` is set.
    case plain
  }

  /// Which certificate authorities the client trusts for TLS.
  public enum TrustRoots: Sendable, Hashable {
    /// The system's trust store.
    case system
    /// Only the certificates in this PEM file (a private CA or a self-signed server certificate).
    case pemFile(String)
  }

  /// Bounds on what a server can make the client read and keep.
  public struct Limits: Sendable, Hashable {
    /// The longest response line, without its literals (64 KiB).
    public var maxLineBytes: Int
    /// The largest literal (`{n}`) the client accepts, e.g. one message body (10 MiB).
    public var maxLiteralBytes: Int
    /// How many messages ``IMAPClient/messages(to:since:configuration:)`` fetches at most (50).
    public var maxMessagesPerSearch: Int
    /// The most bytes received and not yet consumed, and the most one command's responses may
    /// add up to (16 MiB).
    public var maxBufferedBytes: Int

    /// Limits with the given values; each default is named on its property.
    public init(
      maxLineBytes: Int = 64 * 1024,
      maxLiteralBytes: Int = 10 * 1024 * 1024,
      maxMessagesPerSearch: Int = 50,
      maxBufferedBytes: Int = 16 * 1024 * 1024
    ) {
      self.maxLineBytes = maxLineBytes
      self.maxLiteralBytes = maxLiteralBytes
      self.maxMessagesPerSearch = maxMessagesPerSearch
      self.maxBufferedBytes = maxBufferedBytes
    }
  }

  /// The server's host name or IP address; TLS verifies the certificate against it.
  public var host: String
  /// The server's TCP port.
  public var port: Int
  /// How the connection is protected.
  public var security: Security
  /// The login name.
  public var user: String
  /// The password. Never logged, never part of an error.
  public var password: String
  /// The mailbox that ``IMAPClient/select()`` opens ("INBOX").
  public var mailbox: String
  /// The certificate authorities trusted for TLS.
  public var trustRoots: TrustRoots
  /// How long the TCP connection may take to open (10 s).
  public var connectTimeout: Duration
  /// How long one command, the greeting or the TLS handshake may take to complete (15 s).
  public var commandTimeout: Duration
  /// Bounds on what the server can make the client buffer.
  public var limits: Limits
  /// Allows ``Security/plain`` to a host that is not loopback (the password then crosses the
  /// network in the clear).
  public var allowPlaintext: Bool

  /// A configuration; every parameter with a default is optional.
  public init(
    host: String,
    port: Int,
    security: Security,
    user: String,
    password: String,
    mailbox: String = "INBOX",
    trustRoots: TrustRoots = .system,
    connectTimeout: Duration = .seconds(10),
    commandTimeout: Duration = .seconds(15),
    limits: Limits = Limits(),
    allowPlaintext: Bool = false
  ) {
    self.host = host
    self.port = port
    self.security = security
    self.user = user
    self.password = password
    self.mailbox = mailbox
    self.trustRoots = trustRoots
    self.connectTimeout = connectTimeout
    self.commandTimeout = commandTimeout
    self.limits = limits
    self.allowPlaintext = allowPlaintext
  }
}

extension IMAPConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The configuration with the password redacted.
  public var description: String {
    "IMAPConfiguration(\(user)@\(host):\(port), \(security), mailbox: \(mailbox), password: <redacted>)"
  }

  /// The configuration with the password redacted.
  public var debugDescription: String { description }

  /// The fields without the password, for `dump` and debuggers.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "host": host, "port": port, "security": security, "user": user, "password": "<redacted>",
        "mailbox": mailbox, "trustRoots": trustRoots, "connectTimeout": connectTimeout,
        "commandTimeout": commandTimeout, "limits": limits, "allowPlaintext": allowPlaintext,
      ])
  }
}

extension IMAPConfiguration {
  /// Whether `host` names this machine (127.0.0.0/8, `::1`, `localhost`).
  var isLoopbackHost: Bool {
    let name = host.lowercased()
    if name == "localhost" || name == "::1" || name == "[::1]" { return true }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
  }

  /// Whether `host` is an IP address literal (which TLS cannot send as SNI).
  var hostIsIPAddress: Bool {
    if host.contains(":") { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
  }

  /// Checks what can be checked before connecting.
  func validate() throws(IMAPError) {
    if security == .plain && !isLoopbackHost && !allowPlaintext {
      throw .plaintextToRemoteHost(host)
    }
    if user.utf8.contains(0) || password.utf8.contains(0) {
      throw .nulInCredentials
    }
    if !mailbox.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      throw .mailboxNotASCII
    }
  }
}

extension IMAPError {
  static func plaintextToRemoteHost(_ host: String) -> IMAPError {
    IMAPError(
      .invalidConfiguration,
      "refusing a plaintext IMAP connection to \(host), which is not a loopback host; use TLS or set allowPlaintext")
  }

  static let nulInCredentials = IMAPError(
    .invalidConfiguration, "the IMAP user name or password contains a NUL byte, which IMAP cannot carry")

  static let mailboxNotASCII = IMAPError(
    .invalidConfiguration,
    "the mailbox name must be printable ASCII (modified UTF-7 names are not supported)")
}
