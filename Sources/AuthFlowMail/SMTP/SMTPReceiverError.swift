/// Why an ``SMTPReceiver`` could not start: which step failed, on what, and the cause.
public struct SMTPReceiverError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The closed set of start failures.
  public enum Kind: Sendable, Hashable {
    /// A certificate or key file could not be read or used.
    case tlsConfiguration
    /// `requireTLS` is set without a certificate.
    case requireTLSWithoutCertificate
    /// The address could not be bound.
    case bind
    /// ``SMTPReceiver/start()`` was called twice, or after ``SMTPReceiver/stop()``.
    case alreadyStarted
  }

  /// What failed.
  public let kind: Kind
  /// The file or address involved.
  public let subject: String
  /// The underlying error's description, if any.
  public let detail: String

  /// A sentence naming the step, the file or address, and the cause.
  public var description: String {
    switch kind {
    case .tlsConfiguration: "cannot load TLS certificate or key \(subject): \(detail)"
    case .requireTLSWithoutCertificate: "requireTLS is set but no TLS certificate is configured"
    case .bind: "cannot listen on \(subject): \(detail)"
    case .alreadyStarted: "the SMTP receiver was already started"
    }
  }

  static func tlsConfiguration(path: String, _ error: any Error) -> Self {
    Self(kind: .tlsConfiguration, subject: path, detail: String(describing: error))
  }

  static let requireTLSWithoutCertificate = Self(kind: .requireTLSWithoutCertificate, subject: "", detail: "")

  static func bind(host: String, port: Int, _ error: any Error) -> Self {
    Self(kind: .bind, subject: "\(host):\(port)", detail: String(describing: error))
  }

  static let alreadyStarted = Self(kind: .alreadyStarted, subject: "", detail: "")
}
