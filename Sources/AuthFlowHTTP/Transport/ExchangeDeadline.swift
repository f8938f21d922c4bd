import AuthFlowCore

/// Runs `operation` and throws `TransportError.timeout` when `timeout` passes first, cancelling it.
///
/// AsyncHTTPClient's own deadline covers a request up to the response head; the body is read
/// afterwards, so a tenant that trickles its body one byte at a time would hold the run for as long
/// as it likes. This puts one deadline around the whole exchange: connect, head and body.
func withExchangeDeadline<Result: Sendable>(
  _ timeout: Duration, url: String, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
  try await withThrowingTaskGroup(of: Result?.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      // A cancelled sleep (the operation finished first) returns nil rather than throwing.
      guard (try? await DeadlineSleep.sleep(for: timeout)) != nil else { return nil }
      throw TransportError.exchangeTimeout(url, after: timeout)
    }
    defer { group.cancelAll() }
    while let next = try await group.next() {
      if let result = next { return result }
    }
    throw TransportError.cancelled(url)
  }
}
