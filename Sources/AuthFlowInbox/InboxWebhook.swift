import AuthFlowCore
import AuthFlowMail

/// The payloads the inbox's webhooks take, each turned into a message:
///
/// - email: the `event.notification` of Auth0's Custom Email Provider Action (`to`, `from`,
///   `subject`, `text`, `html`), or the whole `event` holding it;
/// - sms: the `event.notification` of a Custom Phone Provider Action (`recipient`, `as_text`,
///   `code`, `from`), or the legacy SMS gateway's `{recipient, body, sender}`.
enum InboxWebhook {
  enum Channel: String { case email, sms }

  struct Problem: Error {
    var message: String
  }

  /// The largest text a webhook message keeps, per field.
  static let fieldLimit = 256 * 1024

  static func message(from payload: Value, channel: Channel) -> Result<InboundMessage, Problem> {
    guard var members = payload.objectValue else { return .failure(Problem(message: "the body is not a JSON object")) }
    if let notification = members["notification"]?.objectValue { members = notification }
    func text(_ key: String) -> String? {
      guard let value = members[key]?.stringValue else { return nil }
      return String(value.prefix(fieldLimit))
    }
    switch channel {
    case .email:
      guard let to = text("to"), !to.isEmpty else {
        return .failure(Problem(message: "an email notification needs `to`"))
      }
      let body = text("text") ?? text("html").map(HTMLText.text(fromHTML:)) ?? ""
      return .success(
        InboundMessage(
          channel: "email", from: text("from") ?? "", to: [to], subject: text("subject") ?? "", text: body,
          html: text("html")))
    case .sms:
      guard let to = text("recipient") ?? text("to"), !to.isEmpty else {
        return .failure(Problem(message: "an SMS notification needs `recipient`"))
      }
      var body = text("as_text") ?? text("body") ?? text("text") ?? ""
      // A phone provider's notification carries the code beside the text; keep it findable.
      if let code = text("code"), !body.contains(code) { body += body.isEmpty ? code : "\n\(code)" }
      return .success(
        InboundMessage(channel: "sms", from: text("from") ?? text("sender") ?? "", to: [to], text: body))
    }
  }
}
