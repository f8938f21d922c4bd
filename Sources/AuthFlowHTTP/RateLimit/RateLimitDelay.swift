public import Foundation

/// How long a 429 response asks the client to wait.
public enum RateLimitDelay {
  /// True for a 429 that is a rate limit to wait out (`too_many_requests`, PROTOCOL §9), false
  /// for brute-force protection's 429 `too_many_attempts` (JSON or a login page): that one is a
  /// protocol answer — the account is blocked — and retrying would only count more attempts.
  public static func isRateLimit(_ response: HTTPResponse) -> Bool {
    guard response.status == 429 else { return false }
    // Protocol answers, not rate limits: brute-force protection and the device flow's `slow_down`
    // (RFC 8628 §3.5; Auth0 sends it with 429), which the poller itself must honour.
    let body = response.bodyText
    return !body.contains("too_many_attempts") && !body.contains("\"slow_down\"")
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
    if let reset = response.headers["X-RateLimit-Reset"]?.trimmingCharacters(in: .whitespaces),
      let epoch = Double(reset), epoch.isFinite
    {
      return until(Date(timeIntervalSince1970: epoch), now: now)
    }
    return nil
  }

  private static func until(_ date: Date, now: Date) -> Duration {
    milliseconds(date.timeIntervalSince(now))
  }

  /// A tenant's number of seconds as a duration: never negative, and at most a day (the waits are
  /// cut to `--rate-limit-max-wait` after; this only keeps the conversion from trapping).
  private static func milliseconds(_ seconds: Double) -> Duration {
    guard seconds.isFinite else { return .zero }
    return .milliseconds(Int64(min(max(0, seconds), 86_400) * 1000))
  }
}
