import Foundation
import NIOCore
import NIOSSL

/// An IMAP4rev1 (RFC 3501) session with one mailbox server, for reading one-time codes: connect
/// (with implicit TLS or STARTTLS), log in, select, search by recipient, fetch raw messages.
///
/// An actor because a session is shared mutable state — the connection, the tag counter, what
/// the server said it can do — and IMAP allows one command at a time here: the actor queues
/// callers instead of letting their commands interleave on the wire.
///
/// Every wait is bounded by ``IMAPConfiguration/commandTimeout``; every failure is an
/// ``IMAPError``; the password never appears in one.
public actor IMAPClient {
  enum State {
    case disconnected
    case notAuthenticated
    case authenticated
    case selected
    case loggedOut
  }

  /// The configuration the client was made with.
  public nonisolated let configuration: IMAPConfiguration
  var connection: IMAPConnection?
  var state = State.disconnected
  var capabilities: Set<String> = []
  private var tagNumber = 0

  /// A client for `configuration`; nothing happens until ``connect()``.
  public init(configuration: IMAPConfiguration) {
    self.configuration = configuration
  }

  deinit {
    connection?.channel.close(promise: nil)
  }

  /// What the server advertised last (upper-cased), e.g. `IMAP4REV1`, `AUTH=PLAIN`.
  public var serverCapabilities: Set<String> { capabilities }

  /// Opens the connection, reads the greeting and, for STARTTLS, upgrades it to TLS; then learns
  /// the server's capabilities.
  public func connect() async throws(IMAPError) {
    try await redactingPassword { () async throws(IMAPError) in
      guard state == .disconnected else { throw .alreadyConnected }
      try configuration.validate()
      let tls = try configuration.security == .plain ? nil : IMAPTLS.context(for: configuration)
      let connection = try await IMAPConnection.open(
        configuration, tls: configuration.security == .implicitTLS ? tls : nil)
      self.connection = connection
      do throws(IMAPError) {
        try await readGreeting(connection)
        if configuration.security == .startTLS, let tls {
          try await upgradeToTLS(connection, tls)
        } else if capabilities.isEmpty {
          try await refreshCapabilities()
        }
      } catch {
        await close()
        throw error
      }
    }
  }

  /// Closes the connection without a LOGOUT. Safe to call more than once.
  public func close() async {
    let connection = self.connection
    self.connection = nil
    if state != .loggedOut { state = .disconnected }
    await connection?.close()
  }

  private func readGreeting(_ connection: IMAPConnection) async throws(IMAPError) {
    let deadline = NIODeadline.now() + TimeAmount(configuration.commandTimeout)
    let frame = try await connection.next(deadline: deadline, waitingFor: "the server's greeting")
    guard case .untagged(.status(let status, let text)) = try IMAPResponse(parsing: frame) else {
      throw .badGreeting(frame.firstLine)
    }
    switch status {
    case .ok: state = .notAuthenticated
    case .preauth: state = .authenticated
    case .bye: throw .greetingRefused(text.text)
    default: throw .badGreeting(frame.firstLine)
    }
    if case .capability(let advertised) = text.code { capabilities = advertised }
  }

  private func upgradeToTLS(_ connection: IMAPConnection, _ tls: NIOSSLContext) async throws(IMAPError) {
    guard state == .notAuthenticated else { throw .startTLSAfterPreauth }
    try await refreshCapabilities()
    guard capabilities.contains("STARTTLS") else { throw .startTLSNotOffered }
    let reply = try await execute(.startTLS)
    try reply.requireOK()
    // Capabilities learnt before TLS may have been forged: forget them and ask again.
    capabilities = []
    try await connection.startTLS(tls)
    try await refreshCapabilities()
  }

  func refreshCapabilities() async throws(IMAPError) {
    let reply = try await execute(.capability)
    try reply.requireOK()
    capabilities = reply.capabilities ?? []
  }

  func nextTag() -> String {
    tagNumber += 1
    let digits = String(tagNumber)
    return "A" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// Runs `body`, removing the password from any error it throws (a hostile server could echo
  /// it back in a response the error quotes).
  func redactingPassword<T>(_ body: () async throws(IMAPError) -> T) async throws(IMAPError) -> T {
    do throws(IMAPError) {
      return try await body()
    } catch {
      let plain = IMAPBase64.encode([0] + Array(configuration.user.utf8) + [0] + Array(configuration.password.utf8))
      return try { () throws(IMAPError) -> T in
        throw error.redacting(configuration.password).redacting(String(decoding: plain, as: UTF8.self))
      }()
    }
  }
}

extension IMAPError {
  static let alreadyConnected = IMAPError(.protocolError, "connect() was called on a client that is not disconnected")
  static let startTLSNotOffered = IMAPError(
    .tlsFailed, "the server does not offer STARTTLS, so the connection cannot be protected", command: "STARTTLS")
  static let startTLSAfterPreauth = IMAPError(
    .tlsFailed, "the server pre-authenticated the plaintext connection, so STARTTLS is not possible",
    command: "STARTTLS")

  static func badGreeting(_ line: String) -> IMAPError {
    IMAPError(.protocolError, "the server's greeting is not `* OK`: \"\(line.prefix(80))\"")
  }

  static func greetingRefused(_ text: String) -> IMAPError {
    IMAPError(.connectionFailed, "the server refused the session in its greeting: \(text)", serverText: text)
  }

  /// The error with every occurrence of `secret` replaced.
  func redacting(_ secret: String) -> IMAPError {
    guard secret.count >= 1 else { return self }
    func scrub(_ text: String) -> String { text.replacingOccurrences(of: secret, with: "<redacted>") }
    return IMAPError(kind, scrub(message), command: command, serverText: serverText.map(scrub))
  }
}
