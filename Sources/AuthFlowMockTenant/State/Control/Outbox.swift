/// A message the mock "sent": an email or SMS with a code or link.
public struct OutboxMessage: Sendable, Hashable {
  public enum Channel: String, Sendable { case email, sms }

  public var id: Int
  public var channel: Channel
  public var to: String
  public var subject: String
  public var body: String
  /// The one-time code in the message, when there is one.
  public var code: String?
  /// The link in the message, when there is one.
  public var link: String?
  /// Seconds since 1970, virtual.
  public var sentAt: Double
}

/// A message to send: what a transaction hands the ``Outbox`` (which numbers and dates it).
struct OutboxDraft: Sendable {
  var channel: OutboxMessage.Channel
  var to: String
  var subject: String
  var body: String
  var code: String? = nil
  var link: String? = nil

  /// A one-time code by email or SMS: the usual "Your verification code is: …" message (`subject`
  /// is the email's; an SMS has none).
  static func code(
    _ code: String, to address: String, sms: Bool, subject: String = "Your verification code",
    body: String? = nil
  ) -> OutboxDraft {
    OutboxDraft(
      channel: sms ? .sms : .email, to: address, subject: sms ? "" : subject,
      body: body ?? "Your verification code is: \(code)", code: code)
  }

  /// An email carrying a link.
  static func link(_ link: String, to address: String, subject: String, body: String) -> OutboxDraft {
    OutboxDraft(channel: .email, to: address, subject: subject, body: body, link: link)
  }
}

/// Every message sent, in order, readable through `/__mock/outbox`: the latest
/// `maxOutboxMessages` (``MockStateLimits``); ids keep counting.
struct Outbox: Sendable {
  private var messages: [OutboxMessage] = []
  private var nextID = 1
  private let capacity: Int

  init(limits: MockStateLimits = MockStateLimits()) {
    self.capacity = max(1, limits.maxOutboxMessages)
  }

  /// How many messages are kept.
  var count: Int { messages.count }

  /// The id of the last message sent (0 before the first).
  var lastID: Int { nextID - 1 }

  /// The messages sent after the one numbered `id`, oldest first.
  func sent(after id: Int) -> [OutboxMessage] {
    messages.filter { $0.id > id }
  }

  @discardableResult
  mutating func send(
    channel: OutboxMessage.Channel, to: String, subject: String, body: String, code: String? = nil,
    link: String? = nil, at time: Double
  ) -> OutboxMessage {
    send(OutboxDraft(channel: channel, to: to, subject: subject, body: body, code: code, link: link), at: time)
  }

  @discardableResult
  mutating func send(_ draft: OutboxDraft, at time: Double) -> OutboxMessage {
    let message = OutboxMessage(
      id: nextID, channel: draft.channel, to: draft.to, subject: draft.subject, body: draft.body, code: draft.code,
      link: draft.link, sentAt: time)
    nextID += 1
    messages.append(message)
    if messages.count > capacity { messages.removeFirst(messages.count - capacity) }
    return message
  }

  /// Messages, oldest first; only those to `address` (case-insensitive) when given.
  func list(to address: String? = nil) -> [OutboxMessage] {
    guard let address = address?.lowercased() else { return messages }
    return messages.filter { $0.to.lowercased() == address }
  }

  /// Empties the outbox (`DELETE /__mock/outbox`); ids keep counting.
  mutating func clear() {
    messages.removeAll()
  }
}
