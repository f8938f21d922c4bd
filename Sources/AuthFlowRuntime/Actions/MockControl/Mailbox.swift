import AuthFlowCore
import AuthFlowHTTP

/// Where `outbox` reads the messages a tenant sent (codes, magic links, invitations). The mock
/// tenant's `/__mock/outbox` is one; a real mail catcher (MailHog, Mailpit, …) can be another.
protocol Mailbox: Sendable {
  /// Messages sent to `address`, oldest first, each with `to`, `subject`, `body`, and `code` /
  /// `link` when the mailbox knows them.
  func messages(to address: String) async throws(ActionError) -> [[String: Value]]
}

/// The mock tenant's outbox: `GET /__mock/outbox?to=ADDRESS`.
struct MockOutbox: Mailbox {
  /// How often `outbox` and Universal Login's passwordless pages poll for a new message.
  static let pollInterval = Duration.milliseconds(100)

  let control: MockControl

  func messages(to address: String) async throws(ActionError) -> [[String: Value]] {
    let body = try MockControl.object(try await control.api.get("__mock/outbox", query: [("to", address)]))
    guard let messages = body["messages"]?.arrayValue else {
      throw .environment(MockControlMessages.unexpectedBody("__mock/outbox"))
    }
    return messages.compactMap(\.objectValue)
  }
}

/// What `outbox` extracts from a message: the one-time code, the link, and an invitation's
/// `invitation` / `organization` parameters.
enum MessageContents {
  /// The message as a step result: its members, plus `code`, `link`, `invitation`,
  /// `organization` and `organization_name` found in the body when the mailbox did not say.
  static func result(_ message: [String: Value], count: Int) -> [String: Value] {
    var result = message
    let body = message["body"]?.stringValue ?? ""
    if result["code"] == nil, let code = firstCode(in: body) { result["code"] = .string(code) }
    if result["link"] == nil, let link = firstLink(in: body) { result["link"] = .string(link) }
    if let link = result["link"]?.stringValue {
      let query = URLParameters.query(of: link)
      for name in ["invitation", "organization", "organization_name"] {
        if let value = query[name] { result[name] = .string(value) }
      }
    }
    result["count"] = .int(count)
    return result
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

  /// The first `http(s)://` URL, up to whitespace or a quote.
  static func firstLink(in text: String) -> String? {
    guard let start = text.range(of: "https://") ?? text.range(of: "http://") else { return nil }
    let tail = text[start.lowerBound...]
    let end = tail.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" } ?? tail.endIndex
    return String(tail[..<end])
  }
}
