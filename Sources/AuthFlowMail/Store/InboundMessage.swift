/// A message that reached authflow by other means than SMTP, such as a webhook for e-mail or SMS.
public struct InboundMessage: Sendable, Hashable {
  /// `email` or `sms` (or another channel name the webhook uses).
  public var channel: String
  /// The sender: an address or a phone number.
  public var from: String
  /// The recipients: addresses or phone numbers.
  public var to: [String]
  /// The subject; `""` for SMS.
  public var subject: String
  /// The text body.
  public var text: String
  /// The HTML body, if any.
  public var html: String?

  /// Creates an inbound message.
  public init(
    channel: String = "email", from: String, to: [String], subject: String = "", text: String, html: String? = nil
  ) {
    self.channel = channel
    self.from = from
    self.to = to
    self.subject = subject
    self.text = text
    self.html = html
  }
}
