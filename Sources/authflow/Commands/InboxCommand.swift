import ArgumentParser
import AuthFlowCore
import AuthFlowInbox
import AuthFlowMail
import AuthFlowRun
import AuthFlowScenario
import Foundation

/// `authflow inbox`: serve an SMTP receiver and its HTTP API (with the webhooks of Auth0's Custom
/// Email and Phone Provider Actions) until stopped, for a tenant whose email provider points at it
/// (docs/messages.md).
struct InboxCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inbox",
    abstract:
      "Serve an SMTP receiver and its HTTP API until stopped; prints the API's URL as the first line of standard output.",
    discussion: """
      A tenant's `inbox: { http: URL }` reads it (docs/messages.md). GET /api/v1/messages?to=ADDRESS lists the \
      messages to an address; POST /api/v1/webhook/email and /api/v1/webhook/sms take Auth0's Custom Email and \
      Phone Provider payloads. Off loopback the API needs --token.
      """)

  @Option(name: .long, help: "Where the SMTP receiver listens, HOST:PORT (default 127.0.0.1:2525); 'none' for none.")
  var smtp = "127.0.0.1:2525"

  @Option(name: .long, help: "Where the HTTP API listens, HOST:PORT (default 127.0.0.1:8025).")
  var http = "127.0.0.1:8025"

  @Option(
    name: .long, help: "The bearer token the HTTP API asks for (required off loopback); or env AUTHFLOW_INBOX_TOKEN.")
  var token: String?

  @Option(name: .long, help: "STARTTLS with this certificate chain (PEM); needs --tls-key.")
  var tlsCertificate: String?

  @Option(name: .long, help: "The certificate's private key (PEM).")
  var tlsKey: String?

  @Flag(name: .long, help: "Refuse mail sent without STARTTLS.")
  var requireTLS = false

  @Option(
    name: .long,
    help: "Accept mail only after AUTH PLAIN/LOGIN as this user; the password from env AUTHFLOW_INBOX_SMTP_PASSWORD.")
  var smtpUser: String?

  @Option(name: .long, help: "The largest message accepted, in bytes (default 10485760).")
  var maxMessageBytes = 10 * 1024 * 1024

  @Option(name: .long, help: "How many messages are kept (default 1000; the oldest go first).")
  var maxMessages = 1000

  func validate() throws {
    try FlagRange.check("--max-message-bytes", maxMessageBytes, in: InputLimits.inboxMessageBytes)
    try FlagRange.check("--max-messages", maxMessages, in: 1...100_000)
    if smtp != "none", ListenAddress.parse(smtp) == nil { throw ValidationError("--smtp must be HOST:PORT or 'none'") }
    if ListenAddress.parse(http) == nil { throw ValidationError("--http must be HOST:PORT") }
    if (tlsCertificate == nil) != (tlsKey == nil) {
      throw ValidationError("--tls-certificate and --tls-key go together")
    }
    if requireTLS, tlsCertificate == nil {
      throw ValidationError("--require-tls needs --tls-certificate and --tls-key")
    }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    var configuration = InboxServer.Configuration(smtp: nil)
    if let (host, port) = ListenAddress.parse(smtp) {
      var receiver = SMTPConfiguration(host: host, port: port, maxMessageBytes: maxMessageBytes)
      if let tlsCertificate, let tlsKey {
        receiver.tls = SMTPConfiguration.TLS(certificateChainPath: tlsCertificate, privateKeyPath: tlsKey)
      }
      receiver.requireTLS = requireTLS
      if let smtpUser {
        guard let password = environment["AUTHFLOW_INBOX_SMTP_PASSWORD"], !password.isEmpty else {
          throw ValidationError("--smtp-user needs the password in env AUTHFLOW_INBOX_SMTP_PASSWORD")
        }
        receiver.credentials = SMTPConfiguration.Credentials(user: smtpUser, password: password)
        // Without --tls-certificate there is no TLS to wait for: AUTH is offered in the clear.
        receiver.allowPlaintextAuth = receiver.tls == nil
      }
      configuration.smtp = receiver
    }
    if let (host, port) = ListenAddress.parse(http) {
      configuration.httpHost = host
      configuration.httpPort = port
    }
    configuration.token = token ?? environment["AUTHFLOW_INBOX_TOKEN"]
    configuration.storeLimits = MessageStoreLimits(count: maxMessages)
    let handle: InboxServer.Handle
    do {
      handle = try await InboxServer.start(configuration)
    } catch {
      Console.error("error: \(error)")
      throw ExitCode(AuthFlowExitCode.environment.rawValue)
    }
    Console.out(handle.apiURL)
    if let port = handle.smtpPort { Console.error("authflow inbox: SMTP on port \(port), API at \(handle.apiURL)") }
    _ = await Interruption.cancellable(early: EarlySignals.take()) {
      while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
    await handle.stop()
  }
}
