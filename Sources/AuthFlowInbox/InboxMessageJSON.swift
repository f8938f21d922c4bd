import AuthFlowCore
import AuthFlowExpression
import AuthFlowMail

/// A stored message as the HTTP API answers it: `id`, `channel`, `to` (the queried address, or
/// the first recipient), `recipients`, `from`, `subject`, `body` (the text), `html`, `code` and
/// `link` (found in the text, ``MessageExtraction``) and `received_at`.
enum InboxMessageJSON {
  static func value(
    _ message: ReceivedMessage, queried: String?, codePattern: RegexPattern? = nil, linkPattern: RegexPattern? = nil
  ) -> Value {
    var members: [String: Value] = [
      "id": .int(message.id),
      "channel": .string(message.channel),
      "to": .string(queried ?? message.recipients.first ?? message.to.first ?? ""),
      "recipients": .array(message.recipients.map(Value.string)),
      "from": .string(message.from),
      "subject": .string(message.subject),
      "body": .string(message.text),
      "received_at": .double(message.receivedAt),
    ]
    if let html = message.html { members["html"] = .string(html) }
    members["code"] = MessageExtraction.code(in: message.text, pattern: codePattern).map(Value.string) ?? .null
    members["link"] = MessageExtraction.link(in: message.text, pattern: linkPattern).map(Value.string) ?? .null
    return .object(members)
  }
}
