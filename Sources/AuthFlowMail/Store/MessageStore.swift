import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The messages received so far, bounded by count, total size and age (oldest evicted first).
///
/// The one piece of shared mutable state of the mail catcher: the SMTP receiver delivers into it,
/// a webhook adds to it, and scenario steps read from it. A lock, not an actor: the receiver
/// delivers from its event loop and answers at once, never waiting for a thread of the
/// cooperative pool (on a loaded two-core machine those can all be busy for seconds, and an SMTP
/// client times out). Messages are decoded before the lock is taken; under it, only short steps.
public final class MessageStore: Sendable {
  /// The bounds applied after every delivery and before every read.
  public let limits: MessageStoreLimits
  /// The bounds for decoding each delivered message.
  public let mimeLimits: MIMELimits
  private let now: @Sendable () -> Double
  private let state = Mutex(Contents())

  private struct Contents {
    var stored: [ReceivedMessage] = []
    var storedBytes = 0
    var nextID = 1
  }

  /// Creates an empty store; `now` (seconds since 1970, the system clock when `nil`) is injectable
  /// for tests.
  public init(
    limits: MessageStoreLimits = MessageStoreLimits(), mimeLimits: MIMELimits = MIMELimits(),
    now: (@Sendable () -> Double)? = nil
  ) {
    self.limits = limits
    self.mimeLimits = mimeLimits
    self.now = now ?? { Date().timeIntervalSince1970 }
  }

  /// Decodes and keeps a message received by SMTP. A message that cannot be decoded is kept with
  /// its raw text as ``ReceivedMessage/text``.
  @discardableResult
  public func deliver(raw: [UInt8], envelopeFrom: String, recipients: [String]) -> ReceivedMessage {
    if let numbers = Self.textMessageRecipients(recipients) {
      let decoded = try? MIMEDecoder.decode(raw, limits: mimeLimits)
      return keep(
        ReceivedMessage(
          channel: "sms", envelopeFrom: envelopeFrom, recipients: numbers, from: decoded?.from ?? envelopeFrom,
          to: numbers, subject: "", text: decoded?.text ?? String(decoding: raw, as: UTF8.self), size: raw.count))
    }
    var message: ReceivedMessage
    do {
      let decoded = try MIMEDecoder.decode(raw, limits: mimeLimits)
      message = ReceivedMessage(
        envelopeFrom: envelopeFrom, recipients: recipients, from: decoded.from, to: decoded.to,
        subject: decoded.subject, date: decoded.date, messageID: decoded.messageID, text: decoded.text,
        html: decoded.html, size: raw.count)
    } catch {
      message = ReceivedMessage(
        envelopeFrom: envelopeFrom, recipients: recipients, from: envelopeFrom, to: recipients, subject: "",
        text: String(decoding: raw, as: UTF8.self), size: raw.count)
    }
    return keep(message)
  }

  /// Keeps a message that arrived by other means (a webhook), under its own channel.
  @discardableResult
  public func add(_ inbound: InboundMessage) -> ReceivedMessage {
    let size = inbound.text.utf8.count + (inbound.html?.utf8.count ?? 0) + inbound.subject.utf8.count
    return keep(
      ReceivedMessage(
        channel: inbound.channel, envelopeFrom: inbound.from, recipients: inbound.to, from: inbound.from,
        to: inbound.to, subject: inbound.subject, text: inbound.text, html: inbound.html, size: size))
  }

  /// The messages for `address` (an envelope recipient or a header `To`, case-insensitive; every
  /// message when `nil`) with an id greater than `after`, oldest first.
  public func messages(to address: String? = nil, after id: Int? = nil) -> [ReceivedMessage] {
    let stored = state.withLock { contents in
      evict(&contents)
      return contents.stored
    }
    let wanted = address.map(Self.normalized)
    return stored.filter { message in
      guard message.id > (id ?? 0) else { return false }
      guard let wanted else { return true }
      return (message.recipients + message.to).contains { Self.normalized($0) == wanted }
    }
  }

  /// The id of the newest message received, to anyone (0 before the first): ids only grow, even
  /// across ``clear()`` and eviction, so "received after" is "an id above this one".
  public var lastID: Int {
    state.withLock { $0.nextID - 1 }
  }

  /// The domain of the email-to-SMS gateway convention: mail to `+15550100@sms.invalid` is a text
  /// message to +15550100 (how the mock tenant sends its SMS over SMTP, as carriers' gateways take
  /// `5550100@txt.example`; `.invalid` is reserved, RFC 2606, so no real address is one).
  public static let textMessageDomain = "sms.invalid"

  /// The phone numbers of recipients that are all at ``textMessageDomain``; nil otherwise.
  static func textMessageRecipients(_ recipients: [String]) -> [String]? {
    let suffix = "@" + textMessageDomain
    let numbers = recipients.compactMap { recipient -> String? in
      let address = normalized(recipient)
      return address.hasSuffix(suffix) ? String(address.dropLast(suffix.count)) : nil
    }
    return !numbers.isEmpty && numbers.count == recipients.count ? numbers : nil
  }

  /// Forgets every message; ids keep counting up.
  public func clear() {
    state.withLock { contents in
      contents.stored.removeAll()
      contents.storedBytes = 0
    }
  }

  private func keep(_ message: ReceivedMessage) -> ReceivedMessage {
    state.withLock { contents in
      var message = message
      message.id = contents.nextID
      message.receivedAt = now()
      contents.nextID += 1
      contents.stored.append(message)
      contents.storedBytes += message.size
      evict(&contents)
      return message
    }
  }

  private func evict(_ contents: inout Contents) {
    let components = limits.age.components
    let maxAge = Double(components.seconds) + Double(components.attoseconds) / 1e18
    let oldest = now() - maxAge
    var drop = 0
    var bytes = contents.storedBytes
    while drop < contents.stored.count,
      contents.stored.count - drop > limits.count || (bytes > limits.bytes && contents.stored.count - drop > 1)
        || contents.stored[drop].receivedAt < oldest
    {
      bytes -= contents.stored[drop].size
      drop += 1
    }
    guard drop > 0 else { return }
    contents.stored.removeFirst(drop)
    contents.storedBytes = bytes
  }

  private static func normalized(_ address: String) -> String {
    var value = Substring(address.trimmingSpace())
    if value.hasPrefix("<"), value.hasSuffix(">") { value = value.dropFirst().dropLast() }
    return value.lowercased()
  }
}
