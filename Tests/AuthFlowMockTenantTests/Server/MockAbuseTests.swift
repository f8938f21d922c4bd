import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowMockTenant

/// The mock stays up under abuse: slow or endless request heads are cut off, oversized requests
/// refused and their connections closed (live on loopback, port 0).
@Suite struct MockAbuseTests {
  /// Runs `body` with the port of a live mock whose header timeout is `headerTimeout`: one
  /// second for the slow clients, a minute for the tests that expect an answer (so that a machine
  /// busy with the rest of the suite cannot turn the answer under test into a disconnection).
  static func withMock(headerTimeout: Duration = .seconds(60), _ body: (Int) async throws -> Void) async throws {
    var configuration = MockTenantConfiguration()
    configuration.headerTimeout = headerTimeout
    let handle = try await MockTenantServer.start(
      fixture: MockHarness.fixture, configuration: configuration, signingKey: MockHarness.key)
    try await Scoped.run(
      {
        let port = try #require(URLComponents(string: handle.baseURL)?.port)
        try await body(port)
      }, finally: { await handle.stop() })
  }

  @Test func aSlowlorisClientIsDisconnected() async throws {
    try await Self.withMock(headerTimeout: .seconds(1)) { port in
      // A request head one byte every 100 ms, never finished: 600 bytes would take a minute.
      let head = Array("GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
      let bytes = head + Array(repeating: UInt8(ascii: "a"), count: 600)
      let outcome = try await RawClient.exchange(
        port: port, chunks: bytes.map { [$0] }, interval: .milliseconds(100), limit: .seconds(50))
      #expect(outcome.closedByServer)
      #expect(outcome.open < .seconds(40))
      #expect(!outcome.received.contains("200 OK"))
    }
  }

  @Test func anUnfinishedHeadIsDisconnected() async throws {
    try await Self.withMock(headerTimeout: .seconds(1)) { port in
      let outcome = try await RawClient.exchange(
        port: port, chunks: [Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)], limit: .seconds(50))
      #expect(outcome.closedByServer)
      #expect(outcome.open < .seconds(40))
    }
  }

  @Test func oversizedHeadersAre431AndClosed() async throws {
    try await Self.withMock { port in
      let request =
        "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
        + String(repeating: "a", count: 32 * 1024) + "\r\n\r\n"
      let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(10))
      #expect(outcome.received.hasPrefix("HTTP/1.1 431"), "\(outcome.received.prefix(200))")
      #expect(outcome.closedByServer)
      #expect(outcome.open < .seconds(40))
    }
  }

  @Test func anOversizedBodyIs413AndClosed() async throws {
    try await Self.withMock { port in
      // Declares 100 MB and sends the first 64 KB: refused before the body is read.
      let head =
        "POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: 100000000\r\n\r\n"
      let outcome = try await RawClient.exchange(
        port: port, chunks: [Array(head.utf8), Array(repeating: UInt8(ascii: "a"), count: 64 * 1024)],
        limit: .seconds(60))
      #expect(outcome.received.hasPrefix("HTTP/1.1 413"), "\(outcome.received.prefix(200))")
      #expect(outcome.received.contains("request_too_large"))
      #expect(outcome.closedByServer)
      #expect(outcome.open < .seconds(40))
    }
  }

  @Test func aChunkedBodyPastTheLimitIs413() async throws {
    try await Self.withMock { port in
      let head =
        "POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n"
      let chunk = Array("10000\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 0x10000) + Array("\r\n".utf8)
      let outcome = try await RawClient.exchange(
        // A long limit: the mock answers on its own; a loaded machine must not cut the wait short.
        port: port, chunks: [Array(head.utf8)] + Array(repeating: chunk, count: 20), limit: .seconds(60))
      #expect(outcome.received.hasPrefix("HTTP/1.1 413"), "\(outcome.received.prefix(200))")
      #expect(outcome.closedByServer)
    }
  }

  @Test func aRequestWithinTheLimitsIsServed() async throws {
    try await Self.withMock { port in
      let request = "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
      let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(10))
      #expect(outcome.received.hasPrefix("HTTP/1.1 200"))
    }
  }

  /// An embedder's header timeout past what NIO's nanoseconds hold (about 292 years) means "no
  /// limit to speak of", not a trap when the server is built.
  @Test func aHeaderTimeoutPastNanosecondsStillServes() async throws {
    try await Self.withMock(headerTimeout: .seconds(Int64.max)) { port in
      let request = "GET /.well-known/openid-configuration HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
      let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(10))
      #expect(outcome.received.hasPrefix("HTTP/1.1 200"))
    }
  }
}
