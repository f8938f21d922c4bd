/// Why an IMAP operation failed: a kind to branch on and a message for people.
///
/// Messages name the command (`LOGIN`, `UID FETCH`) but never its arguments, so the password
/// never appears in one.
public struct IMAPError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as a closed set.
  public enum Kind: Sendable, Hashable {
    /// The TCP connection could not be opened, or the server refused the session in its greeting.
    case connectionFailed
    /// The TLS handshake failed, the certificate was not trusted, or STARTTLS was not offered.
    case tlsFailed
    /// The connection, the greeting, the TLS handshake or a command took longer than its timeout.
    case timeout
    /// The server rejected the credentials, or offered no way to send them.
    case authenticationFailed
    /// The server answered `NO` or `BAD`, or sent something that is not IMAP.
    case protocolError
    /// The server sent a line, literal or volume of data past the configured limits.
    case limitExceeded
    /// The connection was closed (by the server, or already by the client).
    case closed
    /// The configuration cannot be used as given.
    case invalidConfiguration
  }

  /// What went wrong.
  public let kind: Kind
  /// A sentence for people.
  public let message: String
  /// The command that failed (`SELECT`), when one did; never its arguments.
  public let command: String?
  /// The server's text for a `NO` or `BAD`, when it sent one.
  public let serverText: String?

  init(_ kind: Kind, _ message: String, command: String? = nil, serverText: String? = nil) {
    self.kind = kind
    self.message = message
    self.command = command
    self.serverText = serverText
  }

  /// `kind: message`.
  public var description: String { "IMAP \(kind): \(message)" }
}
