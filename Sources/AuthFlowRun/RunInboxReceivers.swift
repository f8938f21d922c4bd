import AuthFlowCore
import AuthFlowInbox
import AuthFlowMail
public import AuthFlowRuntime

/// Starts the SMTP receiver a tenant's `inbox.smtp` asks for: an ``InboxServer`` whose HTTP API
/// listens on an ephemeral loopback port, read by `outbox` as any `authflow inbox` is.
public struct RunInboxReceivers: InboxReceiverHost {
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
