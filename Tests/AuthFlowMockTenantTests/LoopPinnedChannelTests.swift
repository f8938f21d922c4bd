import AuthFlowTestSupport
import Hummingbird
import NIOPosix
import Testing

@testable import AuthFlowMockTenant

/// The mock's server answers each connection on the connection's own event loop (docs/architecture.md,
/// "Where a scenario runs"); Hummingbird's plain HTTP/1 channel answers on the shared task pool.
@Suite struct LoopPinnedChannelTests {
  /// Serves `/where` with the mock's server builder, or Hummingbird's plain one, and asks once.
  private func answer(pinned: Bool) async throws -> String {
    let router = Router()
    router.get("where") { _, _ in MultiThreadedEventLoopGroup.currentEventLoop == nil ? "pool" : "loop" }
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
      router: router, server: pinned ? MockTenantConfiguration().server : .http1(),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        continuation.yield(channel.localAddress?.port ?? 0)
        continuation.finish()
      })
    let server = Task { try await app.run() }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    let request = "GET /where HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(10))
    return outcome.received
  }

  @Test func theMocksServerAnswersOnTheConnectionsLoop() async throws {
    let received = try await answer(pinned: true)
    #expect(received.hasPrefix("HTTP/1.1 200"))
    #expect(received.hasSuffix("loop"), "\(received)")
  }

  /// The control: without the pinned channel the same route answers on the task pool.
  @Test func aPlainChannelAnswersOnTheTaskPool() async throws {
    #expect(try await answer(pinned: false).hasSuffix("pool"))
  }
}
