/// One message a ``MessageStore`` holds: its envelope, its decoded content and how it arrived.
public struct ReceivedMessage: Sendable, Hashable, Identifiable {
  /// The store's number for it, counting up from 1.
  public var id: Int
  /// When it arrived, in seconds since 1970.
  public var receivedAt: Double
  /// How it arrived: `email` (SMTP, the default) or whatever a webhook says, such as `sms`.
  public var channel: String
  /// The envelope sender (`MAIL FROM`); `""` for the null reverse-path.
  public var envelopeFrom: String
  /// The envelope recipients (`RCPT TO`), in order.
  public var recipients: [String]
  /// The header `From` address.
  public var from: String
  /// The header `To` addresses.
  public var to: [String]
  /// The decoded subject.
  public var subject: String
  /// The `Date` header as written.
  public var date: String?
  /// The `Message-ID` header without angle brackets.
  public var messageID: String?
  /// The plain-text body (derived from the HTML when there is no text part).
  public var text: String
  /// The HTML body, when there is one.
  public var html: String?
  /// The raw size in bytes.
  public var size: Int

  /// Creates a message record; the store assigns ``id`` and ``receivedAt`` when it keeps one.
  public init(
    id: Int = 0, receivedAt: Double = 0, channel: String = "email", envelopeFrom: String, recipients: [String],
    from: String, to: [String], subject: String, date: String? = nil, messageID: String? = nil, text: String,
    html: String? = nil, size: Int
  ) {
    self.id = id
    self.receivedAt = receivedAt
    self.channel = channel
    self.envelopeFrom = envelopeFrom
    self.recipients = recipients
    self.from = from
    self.to = to
    self.subject = subject
    self.date = date
    self.messageID = messageID
    self.text = text
    self.html = html
    self.size = size
  }
}
