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
    let code = inbox.codePattern.flatMap { try? RegexPattern($0.value) }
    let link = inbox.linkPattern.flatMap { try? RegexPattern($0.value) }
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
    case .smtp(let receiver):
      guard let inboxReceivers else {
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
      let running = try await inboxReceivers.start(settings)
      let resolved = TenantInbox(
        source: .receiver(url: running.apiURL, token: nil), address: address, codePattern: code, linkPattern: link)
      return (resolved, running)
    }
  }

  /// A path of the profile, relative to `authflow.yaml`'s directory.
  private func path(_ value: String?) -> String? {
    value.map { $0.hasPrefix("/") ? $0 : (projectDirectory as NSString).appendingPathComponent($0) }
  }
}

/// The messages of a tenant's inbox.
enum InboxMessages {
  static func noURL(tenant: String) -> String { "tenant '\(tenant)' has an 'inbox.http' without a URL" }

  static let noReceiverInThisBuild = "this build cannot start an SMTP receiver (inbox.smtp)"
}
