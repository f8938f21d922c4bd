import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP

/// Where `outbox` and Universal Login's passwordless pages read the messages a tenant sent
/// (codes, magic links, invitations): the tenant's inbox (docs/messages.md).
protocol Mailbox: Sendable {
  /// Messages sent to `address`, oldest first, each with `id`, `channel`, `to`, `subject`, `body`,
  /// `sent_at`, and `code` / `link` when the source knows them.
  func messages(to address: String) async throws(ActionError) -> [[String: Value]]
}

/// The tenant's mailbox, as its inbox says, with the inbox's patterns applied to each message.
struct TenantMailbox: Mailbox {
  /// How often `outbox` and Universal Login's passwordless pages poll for a new message.
  static let pollInterval = Duration.milliseconds(100)

  let source: any Mailbox
  let inbox: TenantInbox

  /// The mailbox of the step's tenant; a flow error naming the capability when it has none.
  init(_ context: ActionContext, action: String) throws(ActionError) {
    guard let inbox = context.tenant.inbox else {
      throw .flow(MailboxMessages.noInbox(action: action, tenant: context.tenant.name))
    }
    self.inbox = inbox
    switch inbox.source {
    case .mockOutbox:
      source = MockOutbox(control: try MockControl(context, action: action))
    case .receiver(let url, let token):
      source = ReceiverMailbox(base: url, token: token, api: AuthenticationAPI(context))
    }
  }

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    try await source.messages(to: address).map { MessageContents.extract($0, inbox: inbox) }
  }
}

/// The mock tenant's outbox: `GET /__mock/outbox?to=ADDRESS`.
struct MockOutbox: Mailbox {
  let control: MockControl

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    let body = try MockControl.object(try await control.api.get("__mock/outbox", query: [("to", address)]))
    guard let messages = body["messages"]?.arrayValue else {
      throw .environment(MockControlMessages.unexpectedBody("__mock/outbox"))
    }
    return messages.compactMap(\.objectValue)
  }
}

/// An `authflow inbox` (or the run's own receiver): `GET /api/v1/messages?to=ADDRESS`.
struct ReceiverMailbox: Mailbox {
  let base: String
  let token: String?
  let api: AuthenticationAPI

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    var request = HTTPRequest(
      method: .get, url: base + "api/v1/messages?" + URLParameters([("to", address)]).queryString())
    request.headers["Accept"] = "application/json"
    if let token { request.headers["Authorization"] = "Bearer \(token)" }
    let response = try await api.send(request)
    guard (200..<300).contains(response.status), let body = response.jsonValue?.objectValue,
      let messages = body["messages"]?.arrayValue
    else {
      throw .environment(MailboxMessages.failed(response.url, status: response.status))
    }
    return messages.compactMap(\.objectValue).map { message in
      var normalized = message
      if normalized["sent_at"] == nil { normalized["sent_at"] = message["received_at"] }
      if normalized["to"] == nil || normalized["to"]?.arrayValue != nil {
        normalized["to"] = .string(address)
      }
      return normalized
    }
  }
}

/// What `outbox` extracts from a message: the one-time code, the link, and an invitation's
/// `invitation` / `organization` parameters.
enum MessageContents {
  /// `message` with `code` and `link` found in its text when the source did not say: by the
  /// inbox's patterns (their first group, or the whole match), else the built-in ones, which
  /// read Auth0's default templates.
  static func extract(_ message: [String: Value], inbox: TenantInbox) -> [String: Value] {
    var result = message
    let body = message["body"]?.stringValue ?? ""
    if result["code"] == nil || result["code"] == .null {
      let code = inbox.codePattern.map { pattern in matched(pattern, in: body) } ?? firstCode(in: body)
      if let code { result["code"] = .string(code) }
    }
    if result["link"] == nil || result["link"] == .null {
      let link = inbox.linkPattern.map { pattern in matched(pattern, in: body) } ?? firstLink(in: body)
      if let link { result["link"] = .string(link) }
    }
    return result
  }

  /// The message as a step result: its members, plus the invitation parameters of its link, and
  /// `count`.
  static func result(_ message: [String: Value], count: Int) -> [String: Value] {
    var result = message
    if let link = result["link"]?.stringValue {
      let query = URLParameters.query(of: link)
      for name in ["invitation", "organization", "organization_name"] {
        if let value = query[name] { result[name] = .string(value) }
      }
    }
    result["count"] = .int(count)
    return result
  }

  /// The pattern's first group where it has one, else its whole match.
  static func matched(_ pattern: RegexPattern, in text: String) -> String? {
    guard let match = pattern.firstMatch(in: text) else { return nil }
    return pattern.groupCount > 0 ? match.group(1) : match.text
  }

  /// The first run of 4 to 8 digits standing alone.
  static func firstCode(in text: String) -> String? {
    var run = ""
    for character in text + " " {
      if character.isASCII, character.isNumber {
        run.append(character)
      } else {
        if (4...8).contains(run.count) { return run }
        run = ""
      }
    }
    return nil
  }

  /// The first `http(s)://` URL, up to whitespace, a quote, `<` or `)`.
  static func firstLink(in text: String) -> String? {
    guard let start = text.range(of: "https://") ?? text.range(of: "http://") else { return nil }
    let tail = text[start.lowerBound...]
    let end =
      tail.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ")" } ?? tail.endIndex
    return String(tail[..<end])
  }
}

/// The messages of the mailboxes.
enum MailboxMessages {
  static func noInbox(action: String, tenant: String) -> String {
    "`\(action)` reads the tenant's messages; tenant '\(tenant)' has no inbox (add `requires: [inbox]` to the "
      + "scenario, and an `inbox:` to the tenant in authflow.yaml: docs/messages.md)"
  }

  static func failed(_ url: String, status: Int) -> String {
    "the inbox \(SensitiveData.maskURL(url)) answered HTTP \(status), not a list of messages"
  }
}
