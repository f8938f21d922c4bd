import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A test's failure to see what it waited for within its time bound.
struct TestTimeout: Error, CustomStringConvertible {
  let description: String
}

/// A loopback client that writes exactly the bytes a test gives it and reads replies line by
/// line: the hostile client of the SMTP tests.
final class RawSMTPClient: Sendable {
  private let channel: any Channel
  private let inbox: Inbox

  private init(channel: any Channel, inbox: Inbox) {
    self.channel = channel
    self.inbox = inbox
  }

  static func connect(port: Int) async throws -> RawSMTPClient {
    let inbox = Inbox()
    let channel = try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
      .connectTimeout(.seconds(300))
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(Collector(inbox: inbox))
        }
      }
      .connect(host: "127.0.0.1", port: port).get()
    return RawSMTPClient(channel: channel, inbox: inbox)
  }

  func send(_ text: String) async throws {
    try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
  }

  /// The next complete reply (every line of a multi-line one), within `timeout`.
  func reply(timeout: Duration = .seconds(300)) async throws -> SMTPTestReply {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let reply = inbox.takeReply() { return reply }
      if inbox.isClosed, inbox.takeReply() == nil { throw TestTimeout(description: "closed before a reply") }
      try await Task.sleep(for: .milliseconds(5))
    }
    // A task kept from running past the deadline looks once more: the reply may have come meanwhile.
    if let reply = inbox.takeReply() { return reply }
    throw TestTimeout(description: "no reply within \(timeout): \(inbox.pending)")
  }

  /// Sends `text` and returns the next reply.
  func command(_ text: String) async throws -> SMTPTestReply {
    try await send(text + "\r\n")
    return try await reply()
  }

  /// Whether the server closed the connection within `timeout`.
  func waitForClose(timeout: Duration = .seconds(300)) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if inbox.isClosed { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return inbox.isClosed
  }

  /// Starts TLS on the connection (after the server's `220` to `STARTTLS`), trusting `caFile`.
  func startTLS(caFile: String) async throws {
    var configuration = TLSConfiguration.makeClientConfiguration()
    configuration.trustRoots = .file(caFile)
    let context = try NIOSSLContext(configuration: configuration)
    try await channel.eventLoop.submit { [channel] in
      let handler = try NIOSSLClientHandler(context: context, serverHostname: nil)
      try channel.pipeline.syncOperations.addHandler(handler, position: .first)
    }.get()
  }

  func close() async {
    try? await channel.close()
  }
}

/// A reply as received: its code and lines.
struct SMTPTestReply: Sendable, CustomStringConvertible {
  let code: Int
  let lines: [String]
  var text: String { lines.joined(separator: "\n") }
  var description: String { text }
}

/// What the client received, shared between the event loop and the test.
private final class Inbox: Sendable {
  private struct State {
    var bytes: [UInt8] = []
    var closed = false
  }

  private let state = Mutex(State())

  var isClosed: Bool { state.withLock { $0.closed } }
  var pending: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

  func append(_ bytes: [UInt8]) {
    state.withLock { $0.bytes.append(contentsOf: bytes) }
  }

  func markClosed() {
    state.withLock { $0.closed = true }
  }

  /// Removes and returns the first complete reply, if the bytes hold one.
  func takeReply() -> SMTPTestReply? {
    state.withLock { state in
      var lines: [String] = []
      var start = 0
      for (index, byte) in state.bytes.enumerated() where byte == UInt8(ascii: "\n") {
        var line = String(decoding: state.bytes[start..<index], as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        start = index + 1
        lines.append(line)
        let isLast = line.count < 4 || line[line.index(line.startIndex, offsetBy: 3)] != "-"
        if isLast {
          state.bytes.removeFirst(start)
          return SMTPTestReply(code: Int(line.prefix(3)) ?? 0, lines: lines)
        }
      }
      return nil
    }
  }
}

private final class Collector: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private let inbox: Inbox

  init(inbox: Inbox) {
    self.inbox = inbox
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    inbox.append(Array(buffer.readableBytesView))
  }

  func channelInactive(context: ChannelHandlerContext) {
    inbox.markClosed()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
