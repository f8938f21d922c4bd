public import Foundation

/// How long a 429 response asks the client to wait.
public enum RateLimitDelay {
  /// True for a 429 that is a rate limit to wait out (`too_many_requests`, docs/protocol.md §9), false
  /// for brute-force protection's 429 `too_many_attempts` (JSON or a login page): that one is a
  /// protocol answer — the account is blocked — and retrying would only count more attempts.
  public static func isRateLimit(_ response: HTTPResponse) -> Bool {
    guard response.status == 429 else { return false }
    // The answers of `answerCodes`, in the body: brute force's anywhere (its login page too),
    // `slow_down` as a JSON string only.
    let body = response.bodyText
    return !body.contains("too_many_attempts") && !body.contains("\"slow_down\"")
  }

  /// The error codes a 429 carries as an answer of the protocol, not as a rate limit:
  /// brute-force protection's `too_many_attempts` and the device flow's `slow_down` (RFC 8628
  /// §3.5; Auth0 sends it with 429), which the poller itself must honour. ``isRateLimit(_:)``
  /// looks for them in a body, the interpreter's `ProtocolError.isRateLimit` in an error's code.
  public static let answerCodes: Set<String> = ["too_many_attempts", "slow_down"]

  /// Whether an answer with `status` and the error `code` its body names is a rate limit's
  /// refusal: a 429 that is none of ``answerCodes``.
  public static func isRateLimit(status: Int, code: String?) -> Bool {
    status == 429 && !answerCodes.contains(code ?? "")
  }

  /// The wait `Retry-After` (seconds or an HTTP date) or `X-RateLimit-Reset` (epoch seconds)
  /// asks for, never negative; nil when the response names neither.
  public static func requested(by response: HTTPResponse, now: Date) -> Duration? {
    if let retryAfter = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
      if let seconds = Double(retryAfter), seconds.isFinite {
        return milliseconds(seconds)
      }
      if let date = HTTPDate.parse(retryAfter) {
        return until(date, now: now)
      }
    }
    return reset(in: response.headers).map { until($0, now: now) }
  }

  /// `X-RateLimit-Reset` (epoch seconds) as a date; nil when absent, not a number, or not between
  /// 1970 and the year 3000.
  static func reset(in headers: HTTPHeaderFields) -> Date? {
    guard let text = headers["X-RateLimit-Reset"]?.trimmingCharacters(in: .whitespaces), let epoch = Double(text),
      epoch.isFinite, epoch > 0, epoch < 32_503_680_000
    else { return nil }
    return Date(timeIntervalSince1970: epoch)
  }

  /// Sleeps `duration` for a request to `url`, as time spent on the tenant (a wait the tenant's
  /// rate limit asks for counts as the tenant's, as far as a step deadline goes); a cancelled sleep
  /// is `TransportError.cancelled`.
  static func wait(
    _ duration: Duration, for url: String, sleep: @Sendable (Duration) async throws -> Void
  ) async throws(TransportError) {
    let activity = RequestActivity.current
    let token = activity?.begin(url)
    defer { if let token { activity?.end(token) } }
    do {
      try await sleep(duration)
    } catch {
      throw .cancelled(url)
    }
  }

  /// The wait from `now` until `date`: never negative, at most a day.
  static func until(_ date: Date, now: Date) -> Duration {
    milliseconds(date.timeIntervalSince(now))
  }

  /// A tenant's number of seconds as a duration: never negative, and at most a day (the waits are
  /// cut to `--rate-limit-max-wait` after; this only keeps the conversion from trapping).
  private static func milliseconds(_ seconds: Double) -> Duration {
    guard seconds.isFinite else { return .zero }
    return .milliseconds(Int64(min(max(0, seconds), 86_400) * 1000))
  }
}
