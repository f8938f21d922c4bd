public import AuthFlowCore
public import AuthFlowYAML

/// A tenant's `inbox:` (docs/messages.md): where the emails and text messages the tenant sends are
/// read by `outbox` — a receiver `authflow run` starts for the run (`smtp`), an `authflow inbox`
/// running elsewhere (`http`), or a real mailbox over IMAP (`imap`) — with the address pattern
/// `random_email()` follows and the patterns that cut a code and a link out of a message.
///
/// The mock tenant has an inbox without one (its outbox); any tenant with `inbox:` has the
/// `inbox` capability.
public struct InboxProfile: Sendable {
  /// The keys of `inbox:`.
  public static let keys = ["smtp", "http", "imap", "address", "patterns"]
  /// The keys that name a message source; exactly one is given.
  public static let sourceKeys = ["smtp", "http", "imap"]
  /// The keys of `inbox.smtp`.
  public static let smtpKeys = ["listen", "tls", "auth", "max_message_bytes"]
  /// The keys of `inbox.smtp.tls`.
  public static let tlsKeys = ["certificate", "key", "required"]
  /// The keys of `inbox.smtp.auth`.
  public static let authKeys = ["user", "password"]
  /// The keys of `inbox.http` when written as a mapping.
  public static let httpKeys = ["url", "token"]
  /// The keys of `inbox.imap`.
  public static let imapKeys = ["url", "user", "password", "mailbox", "ca", "security"]
  /// How `inbox.imap` secures its connection.
  public enum IMAPSecurity: String, Sendable, CaseIterable {
    /// Implicit TLS (`imaps://`, port 993).
    case tls
    /// STARTTLS on a plain connection (`imap://`, port 143): the default of `imap://`.
    case starttls
    /// No TLS: loopback servers only.
    case plain
  }

  /// The keys of `inbox.patterns`.
  public static let patternKeys = ["code", "link"]
  /// What `address` must hold: where `random_email()` puts its unique part.
  public static let addressPlaceholder = "{id}"

  /// Where the messages are read.
  public enum Source: Sendable {
    /// An SMTP receiver `authflow run` starts for the run, on `listen`.
    case smtp(SMTPReceiver)
    /// An `authflow inbox` elsewhere, read over its HTTP API (`token` when it is off loopback).
    case http(url: Template, token: Template?)
    /// A real mailbox, read over IMAP.
    case imap(IMAPAccount)

    /// The key it is written under.
    public var key: String {
      switch self {
      case .smtp: return "smtp"
      case .http: return "http"
      case .imap: return "imap"
      }
    }
  }

  /// `inbox.smtp`: the receiver `authflow run` starts.
  public struct SMTPReceiver: Sendable {
    public var host: String
    public var port: Int
    /// STARTTLS with this certificate chain and key (PEM files, relative to `authflow.yaml`).
    public var certificate: Template?
    public var key: Template?
    /// Refuse mail sent without STARTTLS.
    public var requireTLS = false
    /// AUTH PLAIN / LOGIN with these credentials; any sender may deliver when nil.
    public var user: Template?
    public var password: Template?
    /// The largest message accepted (`SIZE`).
    public var maxMessageBytes: Int?
    public var location: SourceLocation

    public init(host: String, port: Int, location: SourceLocation) {
      self.host = host
      self.port = port
      self.location = location
    }
  }

  /// `inbox.imap`: the mailbox and how to reach it.
  public struct IMAPAccount: Sendable {
    /// `imaps://HOST[:PORT]` or `imap://HOST[:PORT]`.
    public var url: Template
    public var user: Template
    public var password: Template
    public var mailbox: Located<String>?
    /// The CA certificate (PEM) the server's certificate is checked against; the system's when nil.
    public var ca: Template?
    /// How the connection is secured; from the URL's scheme when nil.
    public var security: IMAPSecurity?
    public var location: SourceLocation

    public init(url: Template, user: Template, password: Template, location: SourceLocation) {
      self.url = url
      self.user = user
      self.password = password
      self.location = location
    }
  }

  public var source: Source?
  /// `qa+{id}@test.example.com`: the addresses `random_email()` makes for this tenant.
  public var address: Located<String>?
  /// Where the one-time code is in a message (its first group, or the whole match); Auth0's
  /// default templates when nil.
  public var codePattern: Located<String>?
  /// Where the link is in a message (its first group, or the whole match).
  public var linkPattern: Located<String>?
  public var location: SourceLocation

  public init(source: Source? = nil, location: SourceLocation) {
    self.source = source
    self.location = location
  }
}
