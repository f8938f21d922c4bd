import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// `doctor`'s checks of a tenant's inbox: the source reachable and its credentials accepted, and,
/// with `--probe`, a test message that goes in and is read back where the source can take one
/// (the run's SMTP receiver over SMTP; an `authflow inbox` through its email webhook). An IMAP
/// mailbox receives only what a sender delivers: it is checked, not probed.
struct InboxDoctor: Sendable {
  let transport: any HTTPTransport
  let host: (any InboxHost)?

  /// The address the checks read and the probe writes: nobody else's (`.invalid`, RFC 2606).
  static func probeAddress() -> String {
    "authflow-doctor+\(UUID().uuidString.prefix(8).lowercased())@doctor.authflow.invalid"
  }

  func checks(
    _ inbox: TenantInbox, receiverSMTPPort: Int?, probe: Bool
  ) async -> (checks: [DoctorReport.Check], environmentFailure: Bool) {
    switch inbox.source {
    case .mockOutbox:
      return ([.init(.inbox, .passed, Messages.mockOutbox)], false)
    case .reader(let reader):
      do {
        _ = try await reader.messages(to: Self.probeAddress())
      } catch {
        return ([.init(.inbox, .failed, error.message, fix: Messages.imapFix)], !error.credentialsRefused)
      }
      var checks: [DoctorReport.Check] = [.init(.inbox, .passed, Messages.imapReachable)]
      if probe { checks.append(.init(.inbox, .info, Messages.imapNotProbed)) }
      return (checks, false)
    case .receiver(let url, let token):
      return await receiverChecks(url: url, token: token, smtpPort: receiverSMTPPort, probe: probe)
    }
  }

  private func receiverChecks(
    url: String, token: String?, smtpPort: Int?, probe: Bool
  ) async -> (checks: [DoctorReport.Check], environmentFailure: Bool) {
    let shown = SensitiveData.maskURL(url)
    let address = Self.probeAddress()
    let listed: HTTPResponse
    do {
      listed = try await transport.send(request(url + "api/v1/messages?to=" + Self.encode(address), token: token))
    } catch {
      return ([.init(.inbox, .failed, Messages.unreachable(shown, error.message), fix: Messages.receiverFix)], true)
    }
    if listed.status == 401 {
      return ([.init(.inbox, .failed, Messages.tokenRefused(shown), fix: Messages.tokenFix)], false)
    }
    guard listed.status == 200, listed.jsonValue?.member("messages")?.arrayValue != nil else {
      return ([.init(.inbox, .failed, Messages.notAnInbox(shown, listed.status), fix: Messages.receiverFix)], true)
    }
    var checks: [DoctorReport.Check] = [
      .init(.inbox, .passed, smtpPort.map { Messages.runReceiver(port: $0) } ?? Messages.inboxAnswers(shown))
    ]
    guard probe else { return (checks, false) }
    let nonce = UUID().uuidString
    do {
      if let smtpPort, let host {
        try await host.sendTestMessage(
          to: address, subject: Messages.probeSubject, text: nonce, host: "127.0.0.1", port: smtpPort)
      } else {
        var post = HTTPRequest.json(
          .post, url: url + "api/v1/webhook/email",
          body: ["to": .string(address), "subject": .string(Messages.probeSubject), "text": .string(nonce)])
        if let token { post.headers["Authorization"] = "Bearer \(token)" }
        let posted = try await transport.send(post)
        guard (200..<300).contains(posted.status) else {
          throw InboxReadFailure(Messages.webhookRefused(posted.status))
        }
      }
      let read = try await transport.send(request(url + "api/v1/messages?to=" + Self.encode(address), token: token))
      let arrived = read.jsonValue?.member("messages")?.arrayValue?.contains {
        $0.member("body")?.stringValue?.contains(nonce) == true
      }
      if arrived == true {
        checks.append(.init(.inbox, .passed, smtpPort == nil ? Messages.probedWebhook : Messages.probedSMTP))
      } else {
        checks.append(.init(.inbox, .failed, Messages.probeLost, fix: Messages.receiverFix))
      }
    } catch let failure as InboxReadFailure {
      checks.append(.init(.inbox, .failed, failure.message, fix: Messages.receiverFix))
    } catch {
      checks.append(.init(.inbox, .failed, Messages.unreachable(shown, "\(error)"), fix: Messages.receiverFix))
    }
    return (checks, false)
  }

  private func request(_ url: String, token: String?) -> HTTPRequest {
    var request = HTTPRequest(method: .get, url: url)
    request.headers["Accept"] = "application/json"
    if let token { request.headers["Authorization"] = "Bearer \(token)" }
    return request
  }

  private static func encode(_ address: String) -> String {
    URLParameters([("to", address)]).queryString().dropFirst(3).description
  }

  enum Messages {
    static let mockOutbox = "the mock's outbox (/__mock/outbox) holds every message it sends"
    static let imapReachable =
      "the IMAP mailbox is reachable and accepts the credentials (logged in, selected, searched)"
    static let imapNotProbed =
      "not probed: authflow cannot deliver to an IMAP mailbox; a scenario that makes the tenant send one (passwordless_start) shows the path"
    static let imapFix =
      "check inbox.imap: the URL (imaps:// for TLS on 993, imap:// for STARTTLS on 143), the user and password, and `ca` for a private CA"
    static let receiverFix =
      "start the inbox (`authflow inbox`), or check inbox.http's URL and that it is reachable from here"
    static let tokenFix = "give inbox.http the token the inbox was started with (--token, AUTHFLOW_INBOX_TOKEN)"
    static let probeSubject = "authflow doctor probe"
    static let probedSMTP = "a test message sent over SMTP to the run's receiver was read back"
    static let probedWebhook = "a test message posted to the inbox's email webhook was read back"
    static let probeLost = "a test message went in but was not read back"

    static func runReceiver(port: Int) -> String {
      "an SMTP receiver (inbox.smtp) listens on port \(port), its messages read over its HTTP API"
    }

    static func inboxAnswers(_ url: String) -> String { "the inbox \(url) answers and accepts the token" }

    static func unreachable(_ url: String, _ detail: String) -> String {
      "the inbox \(url) cannot be reached: \(detail)"
    }

    static func tokenRefused(_ url: String) -> String { "the inbox \(url) refused the token (HTTP 401)" }

    static func notAnInbox(_ url: String, _ status: Int) -> String {
      "\(url) answered HTTP \(status), not an authflow inbox's list of messages"
    }

    static func webhookRefused(_ status: Int) -> String { "the inbox's email webhook answered HTTP \(status)" }
  }
}
