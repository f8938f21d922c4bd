import AuthFlowCore
public import AuthFlowHTTP
import AuthFlowRuntime

/// The transport every tenant of a run is reached through: the live client, wrapped by the
/// configuration's ``RunConfiguration/transportLayer``, traced when the run traces, paced by the
/// tenants' rate limits (unless pacing is off), retrying on 429 within the rate-limit bounds.
public struct RunNetwork: Sendable {
  let live: LiveTransport
  /// What the run sends through.
  public let transport: any HTTPTransport
  /// Shared by every job and tenant of the run; nil without pacing.
  public let pacer: RateLimitPacer?

  public init(_ configuration: RunConfiguration) {
    live = LiveTransport(configuration: configuration.transport)
    var policy = configuration.retry
    policy.requestTimeout = configuration.transport.requestTimeout
    let below = configuration.transportLayer?(live) ?? live
    // A client span per exchange, only when the run has a tracer: without one nothing changes.
    let layered: any HTTPTransport =
      configuration.tracer == nil ? below : SpanTransport(wrapping: below, scrub: configuration.secrets.scrub)
    let sent: any HTTPTransport =
      configuration.trace.map {
        TracingTransport.scrubbed(wrapping: layered, secrets: configuration.secrets, write: $0)
      }
      ?? layered
    pacer = configuration.pacing ? RateLimitPacer() : nil
    let paced: any HTTPTransport =
      pacer.map {
        PacedTransport(wrapping: sent, pacer: $0, maxWait: policy.maxWait, requestTimeout: policy.requestTimeout)
      } ?? sent
    transport = RetryingTransport(wrapping: paced, policy: policy)
  }

  /// Closes the live client's connections.
  public func shutdown() async {
    try? await live.shutdown()
  }

  /// `pacing: 3 of 120 requests waited for the tenant's rate limit, 1.2s in all`.
  static func pacingSummary(_ statistics: RateLimitPacer.Statistics) -> String {
    let waited = DurationText.format(statistics.waited)
    return
      "pacing: \(statistics.paced) of \(statistics.admitted) requests waited for the tenant's rate limit, \(waited) in all"
  }
}
