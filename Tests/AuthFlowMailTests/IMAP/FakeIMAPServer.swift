import NIOCore
import NIOPosix

/// A scripted, possibly hostile IMAP server on 127.0.0.1 (port 0) for the length of one test.
/// Each connection runs `script`; everything the client sent is kept for assertions.
enum FakeIMAPServer {
  struct StartFailed: Error {}

  /// What clients sent, in order.
  actor Received {
    private(set) var bytes: [UInt8] = []
    func append(_ more: [UInt8]) { bytes += more }
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  static func with<T: Sendable>(
    _ script: @escaping @Sendable (inout FakeIMAPPeer) async throws -> Void,
    _ body: (_ port: Int, _ received: Received) async throws -> T
  ) async throws -> T {
    let received = Received()
    let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .bind(host: "127.0.0.1", port: 0) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    guard let port = server.channel.localAddress?.port else { throw StartFailed() }
    let serving = Task {
      try await withThrowingDiscardingTaskGroup { group in
        try await server.executeThenClose { connections in
          for try await connection in connections {
            group.addTask {
              try? await connection.executeThenClose { inbound, outbound in
                var peer = FakeIMAPPeer(inbound: inbound.makeAsyncIterator(), outbound: outbound, received: received)
                try await script(&peer)
              }
            }
          }
        }
      }
    }
    defer {
      serving.cancel()
      server.channel.close(promise: nil)
    }
    return try await body(port, received)
  }
}

/// The server's side of one connection.
struct FakeIMAPPeer {
  var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
  let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  let received: FakeIMAPServer.Received
  private var pending: [UInt8] = []

  init(
    inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
    outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, received: FakeIMAPServer.Received
  ) {
    self.inbound = inbound
    self.outbound = outbound
    self.received = received
  }

  func send(_ text: String) async throws {
    try await outbound.write(ByteBuffer(string: text))
  }

  func send(bytes: [UInt8]) async throws {
    try await outbound.write(ByteBuffer(bytes: bytes))
  }

  /// Whatever arrives next, or nil at the end of the stream.
  mutating func readChunk() async throws -> [UInt8]? {
    if !pending.isEmpty {
      defer { pending = [] }
      return pending
    }
    guard let buffer = try await inbound.next() else { return nil }
    let bytes = Array(buffer.readableBytesView)
    await received.append(bytes)
    return bytes
  }

  /// The next line without CRLF, or nil at the end of the stream.
  mutating func readLine() async throws -> String? {
    while true {
      if let lineFeed = pending.firstIndex(of: UInt8(ascii: "\n")) {
        var line = Array(pending[..<lineFeed])
        pending.removeFirst(lineFeed + 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard let buffer = try await inbound.next() else { return nil }
      let bytes = Array(buffer.readableBytesView)
      await received.append(bytes)
      pending += bytes
    }
  }

  /// Reads exactly `count` bytes (a literal the client sends).
  mutating func readBytes(_ count: Int) async throws -> [UInt8]? {
    while pending.count < count {
      guard let buffer = try await inbound.next() else { return nil }
      let bytes = Array(buffer.readableBytesView)
      await received.append(bytes)
      pending += bytes
    }
    defer { pending.removeFirst(count) }
    return Array(pending.prefix(count))
  }

  /// Reads until the client hangs up.
  mutating func drain() async throws {
    while try await readChunk() != nil {}
  }

  /// Greets with `greeting`, then answers each command with `answer(tag, command)` until the
  /// client hangs up or `answer` returns nil (then the server hangs up).
  mutating func serve(greeting: String, _ answer: (_ tag: String, _ command: String) -> String?) async throws {
    try await send(greeting + "\r\n")
    while let line = try await readLine() {
      let words = line.split(separator: " ", maxSplits: 1)
      let tag = words.first.map(String.init) ?? ""
      let command = words.count > 1 ? String(words[1]).uppercased() : ""
      guard let reply = answer(tag, command) else { return }
      try await send(reply)
    }
  }
}
