import AuthFlowTestSupport
import Foundation
import Testing

/// When the mock keeps a connection open after an answer (RFC 9112 §9.3), live on loopback: an
/// HTTP/1.0 client that did not ask for `keep-alive` waits for the close, one that did must hear
/// `Connection: keep-alive` back, and `close` is a case-insensitive token.
@Suite struct ConnectionPersistenceTests {
  static let path = "/.well-known/jwks.json"

  /// The answers' status lines and `Connection` values, in order.
  static func answers(in received: String) -> [(status: String, connection: String?)] {
    received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { answer in
      let lines = answer.components(separatedBy: "\r\n")
      let connection = lines.first { $0.lowercased().hasPrefix("connection:") }
        .map { $0.dropFirst("connection:".count).trimmingCharacters(in: .whitespaces).lowercased() }
      return (String(lines[0].prefix(3)), connection)
    }
  }

  @Test func aPlainHTTP10RequestIsAnsweredAndClosed() async throws {
    try await MockAbuseTests.withMock { port in
      let request = "GET \(Self.path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
      let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(20))
      #expect(outcome.closedByServer, "an HTTP/1.0 client reads to the close")
      let answers = Self.answers(in: outcome.received)
      #expect(answers.map(\.status) == ["200"])
      #expect(answers.first?.connection == "close")
    }
  }

  @Test func anHTTP10KeepAliveIsEchoedAndTheConnectionReused() async throws {
    try await MockAbuseTests.withMock { port in
      let first = "GET \(Self.path) HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: Keep-Alive\r\n\r\n"
      let second = "GET \(Self.path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
      let outcome = try await RawClient.exchange(
        port: port, chunks: [Array(first.utf8), Array(second.utf8)], interval: .milliseconds(200),
        limit: .seconds(20))
      let answers = Self.answers(in: outcome.received)
      #expect(answers.map(\.status) == ["200", "200"], "the connection outlived the first answer")
      #expect(answers.first?.connection == "keep-alive")
      #expect(answers.last?.connection == "close")
      #expect(outcome.closedByServer)
    }
  }

  @Test(arguments: ["Close", "CLOSE", "close, TE", "TE, close"])
  func closeIsATokenWhateverItsCase(value: String) async throws {
    try await MockAbuseTests.withMock { port in
      let request = "GET \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: \(value)\r\n\r\n"
      let outcome = try await RawClient.exchange(port: port, chunks: [Array(request.utf8)], limit: .seconds(20))
      #expect(outcome.closedByServer)
      #expect(Self.answers(in: outcome.received).map(\.status) == ["200"])
    }
  }

  /// The control: HTTP/1.1 stays open without `close`, pipelined requests each get their answer.
  @Test func http11StaysOpenUntilAskedToClose() async throws {
    try await MockAbuseTests.withMock { port in
      let open = "GET \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      let close = "GET \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
      let outcome = try await RawClient.exchange(
        port: port, chunks: [Array((open + open).utf8), Array(close.utf8)], interval: .milliseconds(200),
        limit: .seconds(20))
      let answers = Self.answers(in: outcome.received)
      #expect(answers.map(\.status) == ["200", "200", "200"])
      #expect(answers.map(\.connection) == [nil, nil, "close"])
      #expect(outcome.closedByServer)
    }
  }
}
