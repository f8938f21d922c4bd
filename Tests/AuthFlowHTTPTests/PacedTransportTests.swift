import AuthFlowHTTP
import Foundation
import Hummingbird
import Synchronization
import Testing

@Suite struct PacedTransportTests {
  /// A fixed-window rate limit as Auth0 and the mock count it: `limit` requests per window of
  /// `seconds` of the wall clock, every answer with `X-RateLimit-*`, 429 `too_many_requests` past it.
  final class FixedWindow: Sendable {
    let limit: Int
    let seconds: Int
    private let state = Mutex<(window: Int, count: Int, tooMany: Int, served: Int)>((0, 0, 0, 0))

    init(limit: Int, seconds: Int = 1) {
      self.limit = limit
      self.seconds = seconds
    }

    var tooMany: Int { state.withLock { $0.tooMany } }
    var served: Int { state.withLock { $0.served } }

    func routes(_ router: Router<BasicRequestContext>) {
      router.post("/oauth/token") { _, _ in self.answer() }
    }

    private func answer() -> Response {
      let window = Int(Date().timeIntervalSince1970) / seconds
      let (count, passed) = state.withLock { state -> (Int, Bool) in
        if state.window != window { state = (window, 0, state.tooMany, state.served) }
        state.count += 1
        let passed = state.count <= limit
        if passed { state.served += 1 } else { state.tooMany += 1 }
        return (state.count, passed)
      }
      let headers = [
        ("X-RateLimit-Limit", String(limit)), ("X-RateLimit-Remaining", String(max(0, limit - count))),
        ("X-RateLimit-Reset", String((window + 1) * seconds)),
      ]
      guard passed else {
        return Response.text(
          #"{"error":"too_many_requests","error_description":"Too many requests."}"#, status: .tooManyRequests,
          contentType: "application/json", headers: headers)
      }
      return Response.text(#"{"ok":true}"#, contentType: "application/json", headers: headers)
    }
  }

  /// Sends `count` token requests from `jobs` concurrent tasks.
  static func burst(_ transport: any HTTPTransport, url: String, count: Int, jobs: Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for job in 0..<jobs {
        group.addTask {
          for _ in stride(from: job, to: count, by: jobs) {
            var request = ClientRequest.form(url: url, fields: ["grant_type": "client_credentials"])
            request.timeout = .seconds(300)
            _ = try await transport.send(request)
          }
        }
      }
      try await group.waitForAll()
    }
  }

  @Test func pacedRequestsFromManyJobsStayUnderTheLimit() async throws {
    let server = FixedWindow(limit: 4)
    try await TestServer.with(server.routes) { base in
      try await withLiveTransport { live in
        let pacer = RateLimitPacer()
        // However slow the machine, pacing keeps every request inside the limit: none is answered
        // 429 (the waits are bounded by minutes here, so none is sent without its turn).
        let paced = PacedTransport(wrapping: live, pacer: pacer, maxWait: .seconds(120))
        try await Self.burst(paced, url: base + "/oauth/token", count: 14, jobs: 4)
        #expect(server.tooMany == 0)
        #expect(server.served == 14)
        // Every request had its turn: none was sent after its longest wait without one.
        #expect(pacer.statistics.admitted == 14)
      }
    }
  }

  /// The control: the same burst without the pacer runs into the limit, so the test above would
  /// fail if pacing were removed. (A 60 s window, so that a slow machine cannot spread the burst
  /// over windows enough to stay under it: 14 requests, at most 8 in two windows.)
  @Test func unpacedRequestsRunIntoTheLimit() async throws {
    let server = FixedWindow(limit: 4, seconds: 60)
    try await TestServer.with(server.routes) { base in
      try await withLiveTransport { live in
        try await Self.burst(live, url: base + "/oauth/token", count: 14, jobs: 4)
        #expect(server.tooMany > 0)
      }
    }
  }

  @Test func aSpentBucketWaitsForItsReset() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(url: "https://t.example.com/oauth/token?x=1")
    #expect(key == RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token"))
    #expect(pacer.admit(key, now: now) == .send)
    let spent = ClientResponse(
      status: 200,
      headers: ["X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000003"],
      url: "https://t.example.com/oauth/token")
    pacer.learn(key, from: spent, now: now)
    #expect(pacer.admit(key, now: now) == .retryAfter(.seconds(3)))
    // Another path is another bucket.
    #expect(pacer.admit(.init(host: "t.example.com", path: "/userinfo"), now: now) == .send)
    // After the reset, the whole limit again.
    let later = now.addingTimeInterval(3)
    for _ in 0..<10 { #expect(pacer.admit(key, now: later) == .send) }
    #expect(pacer.admit(key, now: later) == .retryAfter(.milliseconds(100)))
  }

  /// A window ends while every request of it is still on its way: their answers, from the window
  /// that is over, must not keep the new one shut.
  @Test func answersFromAWindowThatIsOverDoNotShutTheNextOne() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token")
    func answer(remaining: Int) -> ClientResponse {
      ClientResponse(
        status: 200,
        headers: [
          "X-RateLimit-Limit": "2", "X-RateLimit-Remaining": "\(remaining)", "X-RateLimit-Reset": "1700000001",
        ],
        url: "https://t.example.com/oauth/token")
    }
    #expect(pacer.admit(key, now: now) == .send)
    pacer.learn(key, from: answer(remaining: 1), now: now)
    #expect(pacer.admit(key, now: now) == .send)
    #expect(pacer.admit(key, now: now) == .retryAfter(.seconds(1)))
    // The window ends with one request on its way; a new one may go at once.
    let later = now.addingTimeInterval(1)
    #expect(pacer.admit(key, now: later) == .send)
    #expect(pacer.admit(key, now: later) == .retryAfter(.milliseconds(100)))
    // The late answer is from the window that is over: the new window has room again.
    pacer.learn(key, from: answer(remaining: 0), now: later)
    #expect(pacer.admit(key, now: later) == .send)
  }

  /// Spent with no known end and nothing on its way: the bucket opens again after a poll interval.
  @Test func aSpentBucketWithoutAResetOpensAgain() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/userinfo")
    #expect(pacer.admit(key, now: now) == .send)
    let spent = ClientResponse(
      status: 200, headers: ["X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0"],
      url: "https://t.example.com/userinfo")
    pacer.learn(key, from: spent, now: now)
    #expect(pacer.admit(key, now: now) == .retryAfter(.milliseconds(100)))
    #expect(pacer.admit(key, now: now.addingTimeInterval(0.1)) == .send)
  }

  @Test func requestsOnTheirWayCountAgainstTheReportedRemainder() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token")
    for _ in 0..<3 { #expect(pacer.admit(key, now: now) == .send) }
    // The first answer reports 3 left; two requests are still on their way, so one may go.
    let answer = ClientResponse(
      status: 200,
      headers: ["X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "1700000060"],
      url: "https://t.example.com/oauth/token")
    pacer.learn(key, from: answer, now: now)
    #expect(pacer.admit(key, now: now) == .send)
    #expect(pacer.admit(key, now: now) == .retryAfter(.seconds(60)))
  }

  @Test func aRateLimitAnswerSpendsTheBucket() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token")
    #expect(pacer.admit(key, now: now) == .send)
    let tooMany = ClientResponse(
      status: 429, headers: ["Retry-After": "2"],
      body: Array(#"{"error":"too_many_requests"}"#.utf8), url: "https://t.example.com/oauth/token")
    pacer.learn(key, from: tooMany, now: now)
    #expect(pacer.admit(key, now: now) == .retryAfter(.seconds(2)))
  }

  @Test func aBruteForceBlockIsNotARateLimit() {
    let pacer = RateLimitPacer()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token")
    #expect(pacer.admit(key, now: now) == .send)
    let blocked = ClientResponse(
      status: 429, headers: ["Retry-After": "60"],
      body: Array(#"{"error":"too_many_attempts"}"#.utf8), url: "https://t.example.com/oauth/token")
    pacer.learn(key, from: blocked, now: now)
    #expect(pacer.admit(key, now: now) == .send)
  }

  @Test func aDeclaredRateSpacesRequestsFromTheFirstOne() {
    let pacer = RateLimitPacer()
    pacer.declare(host: "a", requestsPerMinute: 120)
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let x = RateLimitPacer.BucketKey(host: "a", path: "/x")
    #expect(pacer.admit(x, now: now) == .send)
    #expect(pacer.admit(.init(host: "a", path: "/y"), now: now) == .sendAfter(.milliseconds(500)))
    #expect(pacer.admit(x, now: now) == .sendAfter(.seconds(1)))
    // Another host is not paced by this one's rate.
    #expect(pacer.admit(.init(host: "b", path: "/x"), now: now) == .send)
    #expect(pacer.admit(x, now: now.addingTimeInterval(5)) == .send)
  }

  @Test func hostileHeadersAreBoundedOrIgnored() async throws {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let key = RateLimitPacer.BucketKey(host: "t.example.com", path: "/oauth/token")
    let pacer = RateLimitPacer()
    _ = pacer.admit(key, now: now)
    let nonsense = ClientResponse(
      status: 200,
      headers: ["X-RateLimit-Limit": "-3", "X-RateLimit-Remaining": "lots", "X-RateLimit-Reset": "nan"],
      url: "https://t.example.com/oauth/token")
    pacer.learn(key, from: nonsense, now: now)
    #expect(pacer.admit(key, now: now) == .send)

    // A reset a year away: the transport waits at most its `maxWait`, then sends anyway.
    let farAway = RecordingTransport { request in
      ClientResponse(
        status: 200,
        headers: ["X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1731536000"],
        url: request.url)
    }
    let sleeps = Mutex<[Duration]>([])
    let transport = PacedTransport(
      wrapping: farAway, pacer: RateLimitPacer(), maxWait: .seconds(2), now: { now },
      sleep: { duration in sleeps.withLock { $0.append(duration) } })
    _ = try await transport.send(ClientRequest(url: "https://t.example.com/oauth/token"))
    _ = try await transport.send(ClientRequest(url: "https://t.example.com/oauth/token"))
    #expect(await farAway.requests.count == 2)
    #expect(sleeps.withLock { $0.reduce(.zero, +) } <= .seconds(2))
    #expect(!sleeps.withLock { $0.isEmpty })
  }
  /// A request without a `timeout` of its own has the run's request timeout as its deadline, and a
  /// paced wait uses at most half of it — not a deadline of the transport's own.
  @Test func aRequestWithoutATimeoutWaitsAtMostHalfTheRequestTimeout() async throws {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let exhausted = RecordingTransport { request in
      ClientResponse(
        status: 200,
        headers: ["X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700003600"],
        url: request.url)
    }
    let sleeps = Mutex<[Duration]>([])
    let transport = PacedTransport(
      wrapping: exhausted, pacer: RateLimitPacer(), maxWait: .seconds(600), requestTimeout: .seconds(4),
      now: { now }, sleep: { duration in sleeps.withLock { $0.append(duration) } })
    let request = ClientRequest(url: "https://t.example.com/oauth/token")
    #expect(request.timeout == nil)
    _ = try await transport.send(request)
    _ = try await transport.send(request)
    #expect(await exhausted.requests.count == 2)
    let waited = sleeps.withLock { $0.reduce(.zero, +) }
    #expect(waited > .zero)
    #expect(waited <= .seconds(2))
  }
}
