public import AuthFlowCore
import Foundation

/// A transport that hands every exchange, answered or failed, to a sink after it completes.
///
/// The sink receives raw exchanges; format them with `ExchangeFormatter` and scrub them with the
/// run's `SecretRegistry` before printing.
public struct TracingTransport: HTTPTransport {
  public let base: any HTTPTransport
  public let sink: @Sendable (HTTPExchange) -> Void

  public init(wrapping base: any HTTPTransport, sink: @escaping @Sendable (HTTPExchange) -> Void) {
    self.base = base
    self.sink = sink
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    let startedAt = Date()
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let response = try await base.send(request)
      sink(
        HTTPExchange(
          request: request, outcome: .success(response), startedAt: startedAt, duration: start.duration(to: clock.now)))
      return response
    } catch {
      sink(
        HTTPExchange(
          request: request, outcome: .failure(error), startedAt: startedAt, duration: start.duration(to: clock.now)))
      throw error
    }
  }
}

extension TracingTransport {
  /// What `authflow run --trace` prints: each exchange once it completes, after the secrets its
  /// response issued are learned (before any step sees it), formatted and scrubbed of every
  /// secret the run knows, in every encoding.
  public static func scrubbed(
    wrapping base: any HTTPTransport, secrets: SecretRegistry, write: @escaping @Sendable (String) -> Void
  ) -> TracingTransport {
    let formatter = ExchangeFormatter(revealSecrets: secrets.revealSecrets, secrets: secrets)
    return TracingTransport(wrapping: base) { exchange in
      SecretExtraction.register(exchange, in: secrets)
      write(secrets.scrub(formatter.format(exchange)))
    }
  }
}
