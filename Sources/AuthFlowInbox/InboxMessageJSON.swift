import AuthFlowCore
import AuthFlowMail

/// A stored message as the HTTP API answers it: `id`, `channel`, `to` (the queried address, or
/// the first recipient), `recipients`, `from`, `subject`, `body` (the text), `html`, `code` (when
/// a webhook said it) and `received_at`.
enum InboxMessageJSON {
  static func value(_ message: ReceivedMessage, queried: String?) -> Value {
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
    return .object(members)
  }
}
