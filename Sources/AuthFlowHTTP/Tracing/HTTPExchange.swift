public import Foundation

/// One request and what came of it, as `--trace` shows it.
public struct HTTPExchange: Sendable {
  public var request: HTTPRequest
  /// The response, or why there was none.
  public var outcome: Result<HTTPResponse, TransportError>
  public var startedAt: Date
  public var duration: Duration

  public init(
    request: HTTPRequest, outcome: Result<HTTPResponse, TransportError>, startedAt: Date, duration: Duration
  ) {
    self.request = request
    self.outcome = outcome
    self.startedAt = startedAt
    self.duration = duration
  }
}
