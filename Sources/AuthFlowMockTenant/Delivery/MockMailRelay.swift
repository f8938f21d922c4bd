import AuthFlowMail
import Foundation
import Synchronization

/// Delivers the mock's messages over SMTP as well as to its outbox (`authflow mock --smtp`, a mock
/// tenant's `inbox.smtp`): each email to its address, each text message to `NUMBER@sms.invalid`
/// (``MessageStore/textMessageDomain``, how a receiver tells it is one), one at a time in the
/// order they were sent, so that "the newest message" means the same in the outbox and in the
/// receiver. At most ``queueLimit`` wait; past that one is dropped, and said so once.
///
/// A response that sent messages leaves only once they are delivered (``drained()``, awaited by
/// ``MailDeliveryMiddleware``), as a provider that sends its mail inside the request does: a step
/// that follows finds them in the receiver, not on their way.
final class MockMailRelay: Sendable {
  /// How many messages may wait for delivery.
  static let queueLimit = 256

  private let continuation: AsyncStream<OutboxMessage>.Continuation
  private let worker: Task<Void, Never>
  /// Messages queued and not yet delivered (or given up on).
  private let pending = PendingCount()

  init(sender: SMTPSender) {
    let (stream, continuation) = AsyncStream<OutboxMessage>.makeStream(
      bufferingPolicy: .bufferingOldest(Self.queueLimit))
    self.continuation = continuation
    let pending = pending
    worker = Task {
      var warned = false
      for await message in stream {
        do {
          let (recipient, outgoing) = Self.compose(message)
          try await sender.send(outgoing.bytes, from: Self.sender, to: [recipient])
        } catch {
          if !warned {
            FileHandle.standardError.write(
              Data("warning: the mock tenant could not deliver a message over SMTP: \(error)\n".utf8))
            warned = true
          }
        }
        pending.value.subtract(1, ordering: .releasing)
      }
    }
  }

  /// Queues `message` for delivery.
  func deliver(_ message: OutboxMessage) {
    pending.value.add(1, ordering: .relaxed)
    if case .dropped = continuation.yield(message) { pending.value.subtract(1, ordering: .relaxed) }
  }

  /// Waits until every queued message is delivered, at most ``drainLimit``.
  func drained() async {
    let deadline = ContinuousClock.now + Self.drainLimit
    while pending.value.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
  }

  /// The longest a response waits for its messages to be delivered.
  static let drainLimit = Duration.seconds(15)

  /// Stops taking messages and waits for those queued to be delivered (each within the sender's
  /// deadline).
  func finish() async {
    continuation.finish()
    await worker.value
  }

  /// The envelope sender of every message.
  static let sender = "no-reply@mock.authflow.invalid"

  /// The recipient and the message: the outbox's text, with the code and link it carries appended
  /// when the text does not hold them (a template may leave them to a button).
  static func compose(_ message: OutboxMessage) -> (String, OutgoingMessage) {
    var text = message.body
    for value in [message.code, message.link].compactMap({ $0 }) where !text.contains(value) {
      text += "\n\n" + value
    }
    let recipient = message.channel == .sms ? "\(message.to)@\(MessageStore.textMessageDomain)" : message.to
    let outgoing = OutgoingMessage(
      from: "Mock Tenant <\(sender)>", to: [recipient], subject: message.subject, text: text,
      date: OutgoingMessage.dateHeader(secondsSince1970: message.sentAt),
      messageID: "\(message.id).\(UUID().uuidString)@mock.authflow.invalid",
      extraHeaders: [("X-Authflow-Channel", message.channel.rawValue)])
    return (recipient, outgoing)
  }
}

/// A count shared by the relay and its worker.
private final class PendingCount: Sendable {
  let value = Atomic<Int>(0)
}
