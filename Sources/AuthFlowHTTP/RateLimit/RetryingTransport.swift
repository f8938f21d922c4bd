public import Foundation

/// A transport that backs off on HTTP 429 — waiting as `Retry-After` or `X-RateLimit-Reset` asks,
/// within bounds — and retries idempotent requests whose connection failed.
///
/// A 429 `too_many_attempts` (brute-force protection, docs/protocol.md §9) is an answer, not a rate limit:
/// it is returned at once, as is the device flow's 429 `slow_down`. After the last retry the 429 itself is returned, for the action to
/// report.
///
/// A non-idempotent request (a POST to `/oauth/token`) is never repeated after a connection error:
/// the server may have acted on it (a refresh token rotated, a code spent). A 429 is safe to retry
/// for any method, since the server refused the request without acting on it.
///
/// Every attempt and every wait of one request share **one deadline** (the request's `timeout`, else
/// the policy's `requestTimeout`): each attempt is sent with what is left of it, and a retry that
/// could not start before it is not made. A timeout is never retried — it has used up the deadline.
public struct RetryingTransport: HTTPTransport {
  /// The bounds.
  public struct Policy: Sendable {
    /// Retries after the first attempt.
    public var maxRetries: Int = 3
    /// The longest single wait; longer requests are cut to it.
    public var maxWait: Duration = .seconds(10)
    /// The wait when a 429 names no delay.
    public var defaultWait: Duration = .seconds(1)
    /// The first wait before retrying an idempotent request after a connection error; doubles.
    public var connectionRetryWait: Duration = .milliseconds(100)
    /// The deadline of one request, its retries and waits included, unless the request sets its
    /// own `timeout`; keep it equal to the base transport's exchange deadline.
    public var requestTimeout: Duration = .seconds(30)

    public init() {}
  }

  public let base: any HTTPTransport
  public let policy: Policy
  private let now: @Sendable () -> Date
  private let sleep: @Sendable (Duration) async throws -> Void

  /// - Parameters:
  ///   - now: the wall clock `Retry-After` dates and `X-RateLimit-Reset` are compared with.
  ///   - sleep: how to wait; tests inject one that records and returns at once.
  public init(
    wrapping base: any HTTPTransport, policy: Policy = Policy(),
    now: @escaping @Sendable () -> Date = { Date() },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.base = base
    self.policy = policy
    self.now = now
    self.sleep = sleep
  }

  public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    var retries = 0
    var connectionWait = policy.connectionRetryWait
    let clock = ContinuousClock()
    let deadline = clock.now + (request.timeout ?? policy.requestTimeout)
    var attempt = request
    while true {
      attempt.timeout = max(.zero, deadline - clock.now)
      let response: HTTPResponse
      do {
        response = try await base.send(attempt)
      } catch {
        let pause = min(connectionWait, policy.maxWait)
        guard retries < policy.maxRetries, request.method.isIdempotent, Self.isRetryable(error),
          !Task.isCancelled, clock.now + pause < deadline
        else { throw error }
        retries += 1
        try await wait(pause, url: request.url)
        connectionWait = connectionWait * 2
        continue
      }
      guard RateLimitDelay.isRateLimit(response), retries < policy.maxRetries else { return response }
      let requested = RateLimitDelay.requested(by: response, now: now()) ?? policy.defaultWait
      let pause = min(requested, policy.maxWait)
      guard clock.now + pause < deadline else { return response }
      retries += 1
      try await wait(pause, url: request.url)
    }
  }

  private func wait(_ duration: Duration, url: String) async throws(TransportError) {
    try await RateLimitDelay.wait(duration, for: url, sleep: sleep)
  }

  private static func isRetryable(_ error: TransportError) -> Bool {
    switch error.kind {
    case .connectionRefused, .other: return true
    case .timeout, .dns, .tls, .invalidURL, .tooManyRedirects, .bodyTooLarge: return false
    }
  }
}
