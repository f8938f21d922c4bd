public import Foundation

/// A transport that sends each request when its tenant's rate limit allows (``RateLimitPacer``), so
/// a run spread over many jobs stays under the limit instead of collecting 429s.
///
/// Every wait is bounded: by the request's deadline (its `timeout`, else `requestTimeout`), by
/// `maxWait` per request, and by `maxAsks` questions to the pacer. When a bound is reached the request is sent anyway — the
/// tenant then answers (a 429 at worst, which `RetryingTransport` outside this one handles), so
/// pacing never turns into a hang.
public struct PacedTransport: HTTPTransport {
  public let base: any HTTPTransport
  public let pacer: RateLimitPacer
  /// The longest a request waits for its turn.
  public let maxWait: Duration
  /// The most times a request asks the pacer before it is sent regardless.
  public let maxAsks: Int
  /// The deadline of a request that sets no `timeout` of its own: the run's request timeout, as
  /// `RetryingTransport.Policy.requestTimeout`.
  public let requestTimeout: Duration
  private let now: @Sendable () -> Date
  private let sleep: @Sendable (Duration) async throws -> Void

  /// - Parameters:
  ///   - requestTimeout: the deadline of a request without its own `timeout` (the default is
  ///     `RetryingTransport.Policy`'s).
  ///   - now: the wall clock `X-RateLimit-Reset` is compared with.
  ///   - sleep: how to wait; tests inject one that records and returns at once.
  public init(
    wrapping base: any HTTPTransport, pacer: RateLimitPacer, maxWait: Duration = .seconds(60), maxAsks: Int = 10_000,
    requestTimeout: Duration = RetryingTransport.Policy().requestTimeout,
    now: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.base = base
    self.pacer = pacer
    self.maxWait = maxWait
    self.maxAsks = maxAsks
    self.requestTimeout = requestTimeout
    self.now = now
    self.sleep = sleep
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    let key = RateLimitPacer.BucketKey(url: request.url)
    let clock = ContinuousClock()
    let started = clock.now
    // Waiting never uses the whole deadline: the request itself needs some of it.
    let waitBudget = min(maxWait, (request.timeout ?? requestTimeout) / 2)
    var waited = Duration.zero
    var admitted = false
    for _ in 0..<max(1, maxAsks) {
      let left = waitBudget - waited
      switch pacer.admit(key, now: now()) {
      case .send:
        admitted = true
      case .sendAfter(let wait):
        admitted = true
        try await pause(min(wait, max(.zero, left)), url: request.url)
        waited += min(wait, max(.zero, left))
      case .retryAfter(let wait):
        guard left > .zero else { break }
        try await pause(min(wait, left), url: request.url)
        waited += min(wait, left)
        continue
      }
      break
    }
    pacer.recordWait(waited)
    var attempt = request
    if let timeout = request.timeout { attempt.timeout = max(.zero, timeout - (clock.now - started)) }
    let response: HTTPResponse
    do {
      response = try await base.send(attempt)
    } catch {
      if admitted { pacer.abandon(key) }
      throw error
    }
    pacer.learn(key, from: response, now: now(), admitted: admitted)
    return response
  }

  private func pause(_ duration: Duration, url: String) async throws(TransportError) {
    guard duration > .zero else { return }
    try await RateLimitDelay.wait(duration, for: url, sleep: sleep)
  }
}
