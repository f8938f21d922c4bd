import AuthFlowCore
public import Foundation
import Synchronization

/// What one tenant's rate limits allow, learned from its `X-RateLimit-Limit`, `-Remaining` and
/// `-Reset` headers, and shared by every job of a run so that, together, they stay under the limit
/// instead of running into 429s and waiting them out.
///
/// The limit is kept per bucket — a host and path (`t.example.com/oauth/token`), which is how
/// Auth0 and the mock count (docs/protocol.md §9). Within the window a response reports, a bucket admits as
/// many requests as the tenant said remain, less those already on their way; past that, requests
/// wait for the window's reset. Once a window has reset and its new end is not known yet, the
/// bucket admits the whole limit again and then waits for a response to report the new window.
///
/// A declared rate (`rate_limit: { requests_per_minute: N }` in the tenant profile, given with
/// ``declare(host:requestsPerMinute:)``) paces requests from the first one, before any header has
/// been seen: one request per `60 / N` seconds to that host (a generic cell rate, no bursts).
/// One pacer serves every tenant of a run: buckets and declared rates are per host.
///
/// Bounded: at most `maxBuckets` buckets (the least recently used is forgotten), and the pacer
/// only ever computes waits — the transport sleeps them, each within the request's deadline.
public final class RateLimitPacer: Sendable {
  /// The pacer's settings.
  public struct Policy: Sendable {
    /// The most buckets remembered.
    public var maxBuckets: Int = 256
    /// How long to wait before asking again when a bucket is spent and its next window is not
    /// known yet (a response in flight will report it).
    public var pollInterval: Duration = .milliseconds(100)

    public init() {}

  }

  /// What the pacer did, for the run summary and `authflow bench`.
  public struct Statistics: Sendable, Hashable {
    /// Requests admitted.
    public var admitted = 0
    /// Requests that had to wait at least once.
    public var paced = 0
    /// The sum of every wait handed out.
    public var waited: Duration = .zero
  }

  /// The answer to "may this request go now?".
  public enum Admission: Sendable, Hashable {
    /// Send now (the request is counted against its bucket).
    case send
    /// Send after this wait (the request is counted; a declared rate gave it a later slot).
    case sendAfter(Duration)
    /// The bucket is spent: ask again after this wait.
    case retryAfter(Duration)
  }

  /// One bucket's window, as far as the responses tell. Two estimates bound what is left, and the
  /// smaller one counts: the limit less every request this run sent in the window (other clients
  /// may share it), and the least `Remaining` any response of the window reported less every
  /// request still on its way (which that response may not have counted yet). Both hold however
  /// the responses of concurrent requests are ordered.
  struct Bucket {
    /// `X-RateLimit-Limit`.
    var limit: Int?
    /// The least `X-RateLimit-Remaining` reported in the current window.
    var leastRemaining: Int?
    /// When the current window ends (`X-RateLimit-Reset`); nil when unknown.
    var reset: Date?
    /// Requests sent in the current window (since it began, or since this run first used the bucket).
    var sent = 0
    /// Requests admitted whose response has not come back.
    var inFlight = 0
    /// For forgetting the least recently used bucket.
    var lastUsed: Date

    /// How many more requests may go now; nil when nothing is known.
    var budget: Int? {
      let byLimit = limit.map { $0 - sent }
      let byRemaining = leastRemaining.map { $0 - inFlight }
      switch (byLimit, byRemaining) {
      case (let a?, let b?): return min(a, b)
      case (let a?, nil): return a
      case (nil, let b?): return b
      case (nil, nil): return nil
      }
    }

    /// A new window: what is on its way may count in it.
    mutating func startWindow(reset: Date?) {
      self.reset = reset
      leastRemaining = nil
      sent = inFlight
    }
  }

  /// A bucket: the host (and port) and path a request counts against.
  public struct BucketKey: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var path: String

    public init(host: String, path: String) {
      self.host = host
      self.path = path
    }

    /// The bucket of a request to `url` (the query does not count).
    public init(url: String) {
      // A plain URL without escapes reads the same without Foundation (PlainURL).
      if let plain = PlainURL(url), !plain.path.utf8.contains(UInt8(ascii: "%")) {
        host = String(plain.hostAsWritten) + (plain.port.map { ":\($0)" } ?? "")
        path = plain.path.isEmpty ? "/" : plain.path
        return
      }
      let components = URLComponents(string: url)
      host = (components?.host ?? "") + (components?.port.map { ":\($0)" } ?? "")
      path = components.map { $0.path.isEmpty ? "/" : $0.path } ?? url
    }

    public var description: String { host + path }
  }

  /// A declared rate of one host.
  struct DeclaredRate {
    var interval: TimeInterval
    /// The next free slot.
    var nextSlot: Date?
  }

  struct State {
    var buckets: [BucketKey: Bucket] = [:]
    var declared: [String: DeclaredRate] = [:]
    var statistics = Statistics()
  }

  public let policy: Policy
  private let state = Mutex(State())

  public init(policy: Policy = Policy()) {
    self.policy = policy
  }

  /// What the pacer has done so far.
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// The smallest budget left among the buckets of `host` whose window is still open (the
  /// tenant's `X-RateLimit-*` answers, less what is on its way), with that bucket's limit; nil
  /// when the tenant has said nothing of its limits. A monitor exports it as the rate-limit budget.
  public func budget(host: String, now: Date = Date()) -> (remaining: Int, limit: Int?)? {
    state.withLock { state in
      var least: (remaining: Int, limit: Int?)?
      for (key, bucket) in state.buckets where key.host == host {
        if let reset = bucket.reset, now >= reset { continue }
        guard let budget = bucket.budget else { continue }
        if budget < least?.remaining ?? Int.max { least = (max(0, budget), bucket.limit) }
      }
      return least
    }
  }

  /// Paces every request to `host` (`t.example.com`, or `127.0.0.1:4000` with a port) to at most
  /// `requestsPerMinute`, from the first one.
  public func declare(host: String, requestsPerMinute: Int) {
    guard requestsPerMinute > 0 else { return }
    state.withLock { $0.declared[host] = DeclaredRate(interval: 60.0 / Double(requestsPerMinute)) }
  }

  /// Whether a request to `key` may be sent at `now`. `.send` and `.sendAfter` count it as on its
  /// way: report its outcome with ``learn(_:from:now:admitted:)`` or ``abandon(_:)``.
  public func admit(_ key: BucketKey, now: Date) -> Admission {
    state.withLock { state in
      var bucket = state.buckets[key] ?? Bucket(lastUsed: now)
      bucket.lastUsed = now
      defer { Self.store(bucket, key: key, in: &state, maxBuckets: policy.maxBuckets) }
      if let reset = bucket.reset, now >= reset {
        // The window has ended: the tenant's whole limit again, its new end not known yet.
        bucket.startWindow(reset: nil)
      }
      if bucket.reset == nil, bucket.inFlight == 0, let budget = bucket.budget, budget <= 0 {
        // Spent, with no known end and nothing on its way to tell one: the window is taken to
        // end after `pollInterval` (a tenant that reports `Remaining` without `Reset` is asked
        // again then), so the bucket cannot stay shut for good.
        bucket.reset = now.addingTimeInterval(policy.pollInterval.seconds)
        return .retryAfter(policy.pollInterval)
      }
      if let budget = bucket.budget, budget <= 0 {
        let wait = bucket.reset.map { RateLimitDelay.until($0, now: now) } ?? policy.pollInterval
        return .retryAfter(max(wait, .milliseconds(1)))
      }
      bucket.sent += 1
      bucket.inFlight += 1
      state.statistics.admitted += 1
      guard var declared = state.declared[key.host] else { return .send }
      let slot = max(now, declared.nextSlot ?? now)
      declared.nextSlot = slot.addingTimeInterval(declared.interval)
      state.declared[key.host] = declared
      guard slot > now else { return .send }
      return .sendAfter(RateLimitDelay.until(slot, now: now))
    }
  }

  /// Counts a request that waited `total` before it was sent (for the statistics).
  public func recordWait(_ total: Duration) {
    guard total > .zero else { return }
    state.withLock { state in
      state.statistics.paced += 1
      state.statistics.waited += total
    }
  }

  /// Learns the bucket's state from a response to a request for `key`; `admitted` when the pacer
  /// had counted the request (it was sent without its turn after the longest wait otherwise).
  public func learn(_ key: BucketKey, from response: HTTPResponse, now: Date, admitted: Bool = true) {
    let headers = RateLimitHeaders(response.headers)
    state.withLock { state in
      var bucket = state.buckets[key] ?? Bucket(lastUsed: now)
      defer { Self.store(bucket, key: key, in: &state, maxBuckets: policy.maxBuckets) }
      if admitted { bucket.inFlight = max(0, bucket.inFlight - 1) }
      if let limit = headers.limit { bucket.limit = limit }
      let rateLimited = response.status == 429 && RateLimitDelay.isRateLimit(response)
      // A 429 says the bucket is spent until its reset, or its `Retry-After` without the headers.
      let remaining = rateLimited ? 0 : headers.remaining
      // (a 429 that names no wait at all is taken to mean one second, as `RetryingTransport` waits).
      let reset =
        headers.reset
        ?? (rateLimited ? now.addingTimeInterval(RateLimitDelay.requested(by: response, now: now)?.seconds ?? 1) : nil)
      guard let remaining else { return }
      if let reset, reset <= now {
        // An answer from a window that is over: the request counted there, not in the current one
        // (which began while it was on its way, and so counted it as sent).
        if admitted, bucket.reset == nil { bucket.sent = max(0, bucket.sent - 1) }
        return
      }
      switch (bucket.reset, reset) {
      case (let known?, let reported?) where reported < known:
        return  // an answer from a window that has ended
      case (let known?, let reported?) where reported > known:
        bucket.startWindow(reset: reported)
      case (nil, let reported?):
        // The first window this run learns of: every request sent so far may count in it.
        bucket.reset = reported
      default:
        break
      }
      bucket.leastRemaining = min(bucket.leastRemaining ?? remaining, remaining)
    }
  }

  /// Forgets a request admitted for `key` that got no response (a transport error).
  public func abandon(_ key: BucketKey) {
    state.withLock { state in
      guard var bucket = state.buckets[key] else { return }
      bucket.inFlight = max(0, bucket.inFlight - 1)
      state.buckets[key] = bucket
    }
  }

  private static func store(_ bucket: Bucket, key: BucketKey, in state: inout State, maxBuckets: Int) {
    if state.buckets[key] == nil, state.buckets.count >= maxBuckets,
      let oldest = state.buckets.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
    {
      state.buckets[oldest] = nil
    }
    state.buckets[key] = bucket
  }
}

/// The `X-RateLimit-*` headers of one response; a value that is not a number is ignored.
struct RateLimitHeaders {
  var limit: Int?
  var remaining: Int?
  var reset: Date?

  init(_ headers: HTTPHeaderFields) {
    limit = Self.count(headers["X-RateLimit-Limit"])
    remaining = Self.count(headers["X-RateLimit-Remaining"])
    reset = RateLimitDelay.reset(in: headers)
  }

  private static func count(_ text: String?) -> Int? {
    guard let text, let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= 0 else { return nil }
    return min(number, 1_000_000_000)
  }
}
