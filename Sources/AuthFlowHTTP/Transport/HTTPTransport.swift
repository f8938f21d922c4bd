/// Sends one request and returns its response: the one door to the network.
///
/// The interpreter only ever talks to this protocol, so it runs unchanged against the live client
/// (`LiveTransport`), decorators (`TracingTransport`, `RetryingTransport`) or an in-process server.
/// A transport never follows redirects itself; `Browser` does.
public protocol HTTPTransport: Sendable {
  /// Sends the request. Any HTTP status is a response; only failing to get one is an error.
  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}
