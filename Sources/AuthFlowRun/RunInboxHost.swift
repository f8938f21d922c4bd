import AuthFlowCore
import AuthFlowInbox
import AuthFlowMail
public import AuthFlowRuntime
import Foundation

/// Starts the SMTP receiver a tenant's `inbox.smtp` asks for: an ``InboxServer`` whose HTTP API
/// listens on an ephemeral loopback port, read by `outbox` as any `authflow inbox` is.
public struct RunInboxHost: InboxHost {
  public init() {}

  public func start(
    _ settings: InboxReceiverSettings
  ) async throws(TenantResolutionError) -> any RunningInboxReceiver {
    var smtp = SMTPConfiguration(host: settings.host, port: settings.port)
    if let bytes = settings.maxMessageBytes { smtp.maxMessageBytes = bytes }
    if let certificate = settings.certificatePath, let key = settings.keyPath {
      smtp.tls = SMTPConfiguration.TLS(certificateChainPath: certificate, privateKeyPath: key)
    }
    smtp.requireTLS = settings.requireTLS
    if let user = settings.user, let password = settings.password {
      smtp.credentials = SMTPConfiguration.Credentials(user: user, password: password)
      // Without a certificate there is no TLS to wait for: AUTH is offered in the clear, as asked.
      smtp.allowPlaintextAuth = smtp.tls == nil
    }
    do {
      let handle = try await InboxServer.start(InboxServer.Configuration(smtp: smtp))
      return Running(handle: handle)
    } catch {
      throw TenantResolutionError(diagnostics: [], message: error.description, isEnvironment: true)
    }
  }

  private struct Running: RunningInboxReceiver {
    let handle: InboxServer.Handle

    var apiURL: String { handle.apiURL }
    var smtpPort: Int { handle.smtpPort ?? 0 }

    func stop() async {
      await handle.stop()
    }
  }
}

extension RunInboxHost {
  public func imapReader(_ settings: IMAPReaderSettings) -> any InboxMessageReader {
    IMAPMailbox(settings: settings, since: Date().addingTimeInterval(-IMAPMailbox.lookBack))
  }

  public func sendTestMessage(
    to address: String, subject: String, text: String, host: String, port: Int
  ) async throws(InboxReadFailure) {
    let message = OutgoingMessage(
      from: "authflow doctor <doctor@authflow.invalid>", to: [address], subject: subject, text: text,
      date: OutgoingMessage.dateHeader(secondsSince1970: Date().timeIntervalSince1970),
      messageID: "\(UUID().uuidString)@authflow.invalid")
    do {
      try await SMTPSender(host: host, port: port).send(message.bytes, from: "doctor@authflow.invalid", to: [address])
    } catch {
      throw InboxReadFailure("the test message was not sent: \(error.description)")
    }
  }
}

/// A mailbox read over IMAP: each read one session (connect, log in, select, search by recipient
/// and date, fetch newest first up to the client's limit), each message MIME-decoded.
struct IMAPMailbox: InboxMessageReader {
  /// How far before the reader was made `SINCE` reaches: IMAP compares whole days in the
  /// server's time zone, so a day back keeps a message sent just after midnight.
  static let lookBack: TimeInterval = 86_400

  let settings: IMAPReaderSettings
  let since: Date

  var configuration: IMAPConfiguration {
    let security: IMAPConfiguration.Security =
      switch settings.security {
      case .tls: .implicitTLS
      case .starttls: .startTLS
      case .plain: .plain
      }
    return IMAPConfiguration(
      host: settings.host, port: settings.port, security: security, user: settings.user,
      password: settings.password, mailbox: settings.mailbox,
      trustRoots: settings.caPath.map(IMAPConfiguration.TrustRoots.pemFile) ?? .system)
  }

  func lastID() async throws(InboxReadFailure) -> Int {
    do {
      return Int(try await IMAPClient.lastUID(configuration: configuration))
    } catch {
      throw failure(error)
    }
  }

  private func failure(_ error: IMAPError) -> InboxReadFailure {
    InboxReadFailure(
      "the IMAP mailbox \(settings.host):\(settings.port): \(error.description)",
      credentialsRefused: error.kind == .authenticationFailed)
  }

  func messages(to address: String) async throws(InboxReadFailure) -> [[String: Value]] {
    let fetched: [IMAPMessage]
    do {
      fetched = try await IMAPClient.messages(to: address, since: since, configuration: configuration)
    } catch {
      throw failure(error)
    }
    // Oldest first, as every mailbox answers.
    return fetched.sorted { $0.uid < $1.uid }.map { message in
      let decoded = try? MIMEDecoder.decode(message.raw)
      return [
        "id": .int(Int(message.uid)),
        "channel": .string("email"),
        "to": .string(address),
        "from": .string(decoded?.from ?? ""),
        "subject": .string(decoded?.subject ?? ""),
        "body": .string(decoded?.text ?? String(decoding: message.raw, as: UTF8.self)),
      ]
    }
  }
}
