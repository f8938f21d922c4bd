import NIOCore
import NIOPosix

/// A raw TCP client on 127.0.0.1 for abusing a server: bytes sent at a chosen pace, what came back,
/// and whether the server closed the connection.
public enum RawClient {
  /// What one connection saw.
  public struct Outcome: Sendable {
    /// Everything the server sent, as text.
    public var received: String
    /// True when the server closed the connection before `limit`.
    public var closedByServer: Bool
    /// How long the connection stayed open.
    public var open: Duration
  }

  /// Connects to `port`, sends `chunks` one every `interval`, and waits for the server to close
  /// the connection — at most `limit` from the start.
  public static func exchange(
    port: Int, chunks: [[UInt8]], interval: Duration = .zero, limit: Duration
  ) async throws -> Outcome {
    let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    let clock = ContinuousClock()
    let started = clock.now
    return try await connection.executeThenClose { inbound, outbound in
      try await withThrowingTaskGroup(of: Outcome?.self) { group in
        group.addTask {
          var received = ByteBuffer()
          do {
            for try await var chunk in inbound { received.writeBuffer(&chunk) }
          } catch {}
          return Outcome(received: String(buffer: received), closedByServer: true, open: clock.now - started)
        }
        group.addTask {
          for chunk in chunks {
            do { try await outbound.write(ByteBuffer(bytes: chunk)) } catch { return nil }
            if interval > .zero { try await Task.sleep(for: interval) }
          }
          return nil
        }
        group.addTask {
          try await Task.sleep(for: limit)
          return Outcome(received: "", closedByServer: false, open: clock.now - started)
        }
        defer { group.cancelAll() }
        while let next = try await group.next() {
          if let outcome = next { return outcome }
        }
        return Outcome(received: "", closedByServer: false, open: clock.now - started)
      }
    }
  }
}
