import AuthFlowCore
import AuthFlowExpression
import AuthFlowHTTP

/// Where `outbox` and Universal Login's passwordless pages read the messages a tenant sent
/// (codes, magic links, invitations): the tenant's inbox (docs/messages.md).
protocol Mailbox: Sendable {
  /// Messages sent to `address`, oldest first, each with `id`, `channel`, `to`, `subject`, `body`,
  /// `sent_at`, and `code` / `link` when the source knows them.
  func messages(to address: String) async throws(ActionError) -> [[String: Value]]
  /// The id of the newest message sent to anyone (0 before the first): a later message has a
  /// larger `id`. `outbox`'s `after:` compares with it (ids, not clocks: the mock's clock is
  /// virtual, a mail server's is its own).
  func lastID() async throws(ActionError) -> Int
  /// How long to wait between two reads while polling.
  var pollInterval: Duration { get }
}

extension Mailbox {
  var pollInterval: Duration { .milliseconds(100) }
}

/// The tenant's mailbox, as its inbox says, with the inbox's patterns applied to each message.
struct TenantMailbox: Mailbox {
  /// How often `outbox` and Universal Login's passwordless pages poll for a new message: every
  /// 100 ms where a read is one HTTP request on loopback or to an inbox; every second on an IMAP
  /// mailbox, where each read is a whole session (connect, log in, search) on a real server.
  var pollInterval: Duration {
    if case .reader = inbox.source { return .seconds(1) }
    return .milliseconds(100)
  }

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
      var patterns: [(String, String)] = []
      if let code = inbox.codePattern { patterns.append(("code_pattern", code.text)) }
      if let link = inbox.linkPattern { patterns.append(("link_pattern", link.text)) }
      source = ReceiverMailbox(base: url, token: token, api: AuthenticationAPI(context), patterns: patterns)
    case .reader(let reader):
      source = ReaderMailbox(reader: reader)
    }
  }

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    try await source.messages(to: address).map { MessageContents.extract($0, inbox: inbox) }
  }

  func lastID() async throws(ActionError) -> Int {
    try await source.lastID()
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

  func lastID() async throws(ActionError) -> Int {
    let body = try MockControl.object(try await control.api.get("__mock/outbox", query: [("limit", "0")]))
    guard let lastID = body["last_id"]?.intValue else {
      throw .environment(MockControlMessages.unexpectedBody("__mock/outbox"))
    }
    return lastID
  }
}

/// A mailbox the inbox host reads (IMAP): a failure to read it is the environment's.
struct ReaderMailbox: Mailbox {
  let reader: any InboxMessageReader

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    do {
      return try await reader.messages(to: address)
    } catch {
      throw .environment(error.message)
    }
  }

  func lastID() async throws(ActionError) -> Int {
    do {
      return try await reader.lastID()
    } catch {
      throw .environment(error.message)
    }
  }
}

/// An `authflow inbox` (or the run's own receiver): `GET /api/v1/messages?to=ADDRESS`.
struct ReceiverMailbox: Mailbox {
  let base: String
  let token: String?
  let api: AuthenticationAPI

  /// The inbox's patterns, sent along: the API cuts the code and link out itself and answers them
  /// as `code` and `link`, secrets from the first byte a trace prints.
  let patterns: [(String, String)]

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    // `list` has checked that `messages` is a list.
    let messages = try await list([("to", address)] + patterns)["messages"]?.arrayValue ?? []
    return messages.compactMap(\.objectValue).map { message in
      var normalized = message
      if normalized["sent_at"] == nil { normalized["sent_at"] = message["received_at"] }
      if normalized["to"] == nil || normalized["to"]?.arrayValue != nil {
        normalized["to"] = .string(address)
      }
      return normalized
    }
  }

  func lastID() async throws(ActionError) -> Int {
    guard let lastID = try await list([("limit", "0")])["last_id"]?.intValue else {
      throw .environment(MailboxMessages.noLastID(base + "api/v1/messages"))
    }
    return lastID
  }

  /// `GET api/v1/messages` with `parameters`: its JSON object, or an environment failure.
  private func list(_ parameters: [(String, String)]) async throws(ActionError) -> [String: Value] {
    var request = HTTPRequest(method: .get, url: base + "api/v1/messages?" + URLParameters(parameters).queryString())
    request.headers["Accept"] = "application/json"
    if let token { request.headers["Authorization"] = "Bearer \(token)" }
    let response = try await api.send(request)
    guard (200..<300).contains(response.status), let body = response.jsonValue?.objectValue,
      body["messages"]?.arrayValue != nil
    else {
      throw .environment(MailboxMessages.failed(response.url, status: response.status))
    }
    return body
  }
}

/// What `outbox` extracts from a message: the one-time code, the link, and an invitation's
/// `invitation` / `organization` parameters.
enum MessageContents {
  /// `message` with `code` and `link` found in its text when the source did not say, by the
  /// inbox's patterns or the built-in rules (``MessageExtraction``).
  static func extract(_ message: [String: Value], inbox: TenantInbox) -> [String: Value] {
    var result = message
    let body = message["body"]?.stringValue ?? ""
    if result["code"] == nil || result["code"] == .null,
      let code = MessageExtraction.code(in: body, pattern: inbox.codePattern?.compiled)
    {
      result["code"] = .string(code)
    }
    if result["link"] == nil || result["link"] == .null,
      let link = MessageExtraction.link(in: body, pattern: inbox.linkPattern?.compiled)
    {
      result["link"] = .string(link)
    }
    return result
  }

  /// The message as a step result: its members, plus the ticket and invitation parameters of its
  /// link, and
  /// `count`.
  static func result(_ message: [String: Value], count: Int) -> [String: Value] {
    var result = message
    if let link = result["link"]?.stringValue {
      let query = URLParameters.query(of: link)
      for name in ["ticket", "invitation", "organization", "organization_name"] {
        if let value = query[name] { result[name] = .string(value) }
      }
    }
    result["count"] = .int(count)
    return result
  }
}

/// The messages of the mailboxes.
enum MailboxMessages {
  static func noInbox(action: String, tenant: String) -> String {
    "`\(action)` reads the tenant's messages; tenant '\(tenant)' has no inbox (add `requires: [inbox]` to the "
      + "scenario, and an `inbox:` to the tenant in authflow.yaml: docs/messages.md)"
  }

  static func noLastID(_ url: String) -> String {
    "the inbox \(SensitiveData.maskURL(url)) does not say `last_id` (an `authflow inbox` older than `outbox`'s "
      + "`after:`): upgrade it to read messages received after a step"
  }

  static func failed(_ url: String, status: Int) -> String {
    "the inbox \(SensitiveData.maskURL(url)) answered HTTP \(status), not a list of messages"
  }
}
