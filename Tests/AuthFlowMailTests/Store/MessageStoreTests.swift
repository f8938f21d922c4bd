import Synchronization
import Testing

@testable import AuthFlowMail

@Suite struct MessageStoreTests {
  private func raw(to: String, subject: String = "s") -> [UInt8] {
    Array("From: f@example.com\r\nTo: \(to)\r\nSubject: \(subject)\r\n\r\nbody\r\n".utf8)
  }

  @Test func deliversDecodedMessagesWithIncreasingIDs() async {
    let store = MessageStore(now: { 1000 })
    let first = store.deliver(
      raw: raw(to: "A@Example.com"), envelopeFrom: "f@example.com", recipients: ["x@e.com"])
    let second = store.deliver(raw: raw(to: "b@example.com"), envelopeFrom: "", recipients: ["y@e.com"])
    #expect(first.id == 1)
    #expect(second.id == 2)
    #expect(first.receivedAt == 1000)
    #expect(first.channel == "email")
    #expect(first.to == ["A@Example.com"])
    #expect(store.messages(to: "a@example.COM").map(\.id) == [1])
    #expect(store.messages(to: "<Y@E.com>").map(\.id) == [2])
    #expect(store.messages(after: 1).map(\.id) == [2])
    #expect(store.messages().map(\.id) == [1, 2])
  }

  @Test func evictsOldestByCountBytesAndAge() async {
    let clock = Mutex<Double>(0)
    let store = MessageStore(
      limits: MessageStoreLimits(count: 3, bytes: 400, age: .seconds(60)), now: { clock.withLock { $0 } })
    for index in 1...4 {
      store.deliver(raw: raw(to: "a@e.com", subject: "\(index)"), envelopeFrom: "", recipients: [])
    }
    #expect(store.messages().map(\.id) == [2, 3, 4])
    store.deliver(raw: [UInt8](repeating: 65, count: 380), envelopeFrom: "", recipients: [])
    #expect(store.messages().map(\.id) == [5])
    clock.withLock { $0 = 61 }
    #expect(store.messages().isEmpty)
    store.deliver(raw: raw(to: "a@e.com"), envelopeFrom: "", recipients: [])
    #expect(store.messages().map(\.id) == [6])
    store.clear()
    #expect(store.messages().isEmpty)
  }

  @Test func undecodableMessageIsKeptAsRawText() async {
    let store = MessageStore(mimeLimits: MIMELimits(depth: 0))
    let message = store.deliver(
      raw: Array("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n".utf8),
      envelopeFrom: "f@e.com", recipients: ["r@e.com"])
    #expect(message.text.contains("--b"))
    #expect(message.to == ["r@e.com"])
  }

  @Test func addsMessagesFromOtherChannels() async {
    let store = MessageStore()
    let sms = store.add(InboundMessage(channel: "sms", from: "+15550001", to: ["+15550002"], text: "code 42"))
    #expect(sms.channel == "sms")
    #expect(sms.id == 1)
    #expect(store.messages(to: "+15550002").map(\.text) == ["code 42"])
  }
}
