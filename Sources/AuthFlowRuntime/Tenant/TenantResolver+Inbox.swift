import AuthFlowCore
import AuthFlowExpression
import AuthFlowScenario
import Foundation

extension TenantResolver {
  /// The tenant's inbox: its profile's `inbox:` evaluated (the run's receiver started for
  /// `smtp`), the mock's outbox on a mock tenant without one, nil otherwise.
  func resolveInbox(
    _ profile: TenantProfile, evaluate: (Template?) throws(TenantResolutionError) -> Value?
  ) async throws(TenantResolutionError) -> (inbox: TenantInbox?, receiver: (any RunningInboxReceiver)?) {
    guard let inbox = profile.inbox, let source = inbox.source else {
      return (profile.kind == .mock ? TenantInbox(source: .mockOutbox) : nil, nil)
    }
    // Checked when the profile was parsed: these compile.
    let code = inbox.codePattern.flatMap { TenantInbox.Pattern($0.value) }
    let link = inbox.linkPattern.flatMap { TenantInbox.Pattern($0.value) }
    let address = inbox.address?.value
    switch source {
    case .http(let url, let token):
      guard let base = (try evaluate(url))?.stringValue, !base.isEmpty else {
        throw TenantResolutionError(
          diagnostics: [.error(InboxMessages.noURL(tenant: profile.name.value), at: inbox.location)],
          message: InboxMessages.noURL(tenant: profile.name.value), isEnvironment: false)
      }
      let secret = (try evaluate(token))?.stringValue
      if let secret { secrets.register(secret) }
      let resolved = TenantInbox(
        source: .receiver(url: base.hasSuffix("/") ? base : base + "/", token: secret), address: address,
        codePattern: code, linkPattern: link)
      return (resolved, nil)
    case .imap(let account):
      guard let inboxHost else {
        throw TenantResolutionError(diagnostics: [], message: InboxMessages.noReceiverInThisBuild, isEnvironment: true)
      }
      let settings = try imapSettings(account, tenant: profile.name.value, evaluate: evaluate)
      let resolved = TenantInbox(
        source: .reader(inboxHost.imapReader(settings)), address: address, codePattern: code, linkPattern: link)
      return (resolved, nil)
    case .smtp(let receiver):
      guard let inboxHost else {
        throw TenantResolutionError(
          diagnostics: [], message: InboxMessages.noReceiverInThisBuild, isEnvironment: true)
      }
      let password = (try evaluate(receiver.password))?.stringValue
      if let password { secrets.register(password) }
      let settings = InboxReceiverSettings(
        host: receiver.host, port: receiver.port,
        certificatePath: path((try evaluate(receiver.certificate))?.stringValue),
        keyPath: path((try evaluate(receiver.key))?.stringValue), requireTLS: receiver.requireTLS,
        user: (try evaluate(receiver.user))?.stringValue, password: password,
        maxMessageBytes: receiver.maxMessageBytes)
      let running = try await inboxHost.start(settings)
      let resolved = TenantInbox(
        source: .receiver(url: running.apiURL, token: nil), address: address, codePattern: code, linkPattern: link)
      return (resolved, running)
    }
  }

  /// `inbox.imap` evaluated: host, port and security from the URL (`imaps://` TLS on 993,
  /// `imap://` STARTTLS on 143), the password registered as a secret.
  private func imapSettings(
    _ account: InboxProfile.IMAPAccount, tenant: String,
    evaluate: (Template?) throws(TenantResolutionError) -> Value?
  ) throws(TenantResolutionError) -> IMAPReaderSettings {
    func invalid(_ message: String) -> TenantResolutionError {
      TenantResolutionError(
        diagnostics: [.error(message, at: account.location)], message: message, isEnvironment: false)
    }
    guard let url = (try evaluate(account.url))?.stringValue, let parsed = IMAPURL(url) else {
      throw invalid(InboxMessages.badIMAPURL(tenant: tenant))
    }
    guard let user = (try evaluate(account.user))?.stringValue, !user.isEmpty,
      let password = (try evaluate(account.password))?.stringValue, !password.isEmpty
    else {
      throw invalid(InboxMessages.noIMAPCredentials(tenant: tenant))
    }
    secrets.register(password)
    let security: IMAPReaderSettings.Security =
      switch account.security {
      case .tls?: .tls
      case .starttls?: .starttls
      case .plain?: .plain
      case nil: parsed.implicitTLS ? .tls : .starttls
      }
    return IMAPReaderSettings(
      host: parsed.host, port: parsed.port, security: security, user: user, password: password,
      mailbox: account.mailbox?.value ?? "INBOX", caPath: path((try evaluate(account.ca))?.stringValue))
  }

  /// Where a sender on this machine reaches the receiver of `inbox.smtp`: its listen address, or
  /// loopback when it listens on every address.
  static func connectableHost(_ inbox: InboxProfile?) -> String {
    guard case .smtp(let receiver)? = inbox?.source else { return "127.0.0.1" }
    switch receiver.host {
    case "0.0.0.0", "": return "127.0.0.1"
    case "::": return "::1"
    default: return receiver.host
    }
  }

  /// A path of the profile, relative to `authflow.yaml`'s directory.
  private func path(_ value: String?) -> String? {
    value.map { $0.hasPrefix("/") ? $0 : (projectDirectory as NSString).appendingPathComponent($0) }
  }
}

/// `imaps://HOST[:PORT]` or `imap://HOST[:PORT]` (a trailing `/` allowed).
struct IMAPURL {
  var host: String
  var port: Int
  var implicitTLS: Bool

  init?(_ text: String) {
    let implicitTLS = text.hasPrefix("imaps://")
    guard implicitTLS || text.hasPrefix("imap://") else { return nil }
    var rest = Substring(text.dropFirst(implicitTLS ? 8 : 7))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else { return nil }
    if let (host, port) = ListenAddress.parse(String(rest)), port > 0 {
      self.host = host
      self.port = port
    } else if !rest.contains(":") || (rest.hasPrefix("[") && rest.hasSuffix("]")) {
      self.host = rest.hasPrefix("[") ? String(rest.dropFirst().dropLast()) : String(rest)
      self.port = implicitTLS ? 993 : 143
    } else {
      return nil
    }
    self.implicitTLS = implicitTLS
  }
}

/// The messages of a tenant's inbox.
enum InboxMessages {
  static func badIMAPURL(tenant: String) -> String {
    "tenant '\(tenant)' has an 'inbox.imap.url' that is not imaps://HOST[:PORT] or imap://HOST[:PORT]"
  }

  static func noIMAPCredentials(tenant: String) -> String {
    "tenant '\(tenant)' has an 'inbox.imap' without a user or password"
  }

  static func noURL(tenant: String) -> String { "tenant '\(tenant)' has an 'inbox.http' without a URL" }

  static let noReceiverInThisBuild = "this build cannot start an SMTP receiver (inbox.smtp)"
}
