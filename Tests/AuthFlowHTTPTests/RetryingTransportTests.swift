import AuthFlowHTTP
import Foundation
import Hummingbird
import Synchronization
import Testing

@Suite struct RetryingTransportTests {
  /// Records the waits asked for, without waiting.
  final class Sleeps: Sendable {
    let recorded = Mutex<[Duration]>([])
    var all: [Duration] { recorded.withLock { $0 } }
    func record(_ duration: Duration) { recorded.withLock { $0.append(duration) } }
  }

  /// A server whose `/limited` answers 429 (with `headers`) the first time, then 200.
  static func limited(headers: [(String, String)]) -> @Sendable (Router<BasicRequestContext>) -> Void {
    let calls = Mutex(0)
    return { router in
      router.get("/limited") { _, _ in
        let call = calls.withLock { count in
          count += 1
          return count
        }
        return call == 1 ? Response.text("slow down", status: .tooManyRequests, headers: headers) : .text("ok")
      }
    }
  }

  @Test func retriesAfterRetryAfterSeconds() async throws {
    try await TestServer.with(Self.limited(headers: [("Retry-After", "2")])) { base in
      try await withLiveTransport { live in
        let sleeps = Sleeps()
        let transport = RetryingTransport(wrapping: live, sleep: { sleeps.record($0) })
        let response = try await transport.send(ClientRequest(url: base + "/limited"))
        #expect(response.status == 200)
        #expect(response.bodyText == "ok")
        #expect(sleeps.all == [.seconds(2)])
      }
    }
  }

  @Test func retriesAfterRateLimitResetCaseInsensitively() async throws {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    try await TestServer.with(Self.limited(headers: [("x-ratelimit-reset", "1700000003")])) { base in
      try await withLiveTransport { live in
        let sleeps = Sleeps()
        let transport = RetryingTransport(wrapping: live, now: { now }, sleep: { sleeps.record($0) })
        let response = try await transport.send(ClientRequest(url: base + "/limited"))
        #expect(response.status == 200)
        #expect(sleeps.all == [.seconds(3)])
      }
    }
  }

  @Test func waitsAreBoundedAndRetriesEnd() async throws {
    let transport = RecordingTransport { request in
      ClientResponse(status: 429, headers: ["Retry-After": "3600"], url: request.url)
    }
    let sleeps = Sleeps()
    var policy = RetryingTransport.Policy()
    policy.maxRetries = 2
    policy.maxWait = .seconds(5)
    let retrying = RetryingTransport(wrapping: transport, policy: policy, sleep: { sleeps.record($0) })
    let response = try await retrying.send(.form(url: "https://t.example.com/oauth/token", fields: ["a": "1"]))
    #expect(response.status == 429)
    #expect(sleeps.all == [.seconds(5), .seconds(5)])
    #expect(await transport.requests.count == 3)
  }

  @Test func bruteForceBlockIsAnAnswerNotARateLimit() async throws {
    let transport = RecordingTransport { request in
      ClientResponse(
        status: 429, headers: ["X-RateLimit-Reset": "1", "Content-Type": "application/json"],
        body: Array(#"{"error":"too_many_attempts","error_description":"blocked"}"#.utf8), url: request.url)
    }
    let sleeps = Sleeps()
    let retrying = RetryingTransport(wrapping: transport, sleep: { sleeps.record($0) })
    let response = try await retrying.send(.form(url: "https://t.example.com/oauth/token", fields: ["a": "1"]))
    #expect(response.status == 429)
    #expect(sleeps.all.isEmpty)
    #expect(await transport.requests.count == 1)
  }

  @Test func retryAfterHTTPDateIsHonoured() {
    let now = Date(timeIntervalSince1970: 784_111_770)  // Sun, 06 Nov 1994 08:49:30 GMT
    let response = ClientResponse(status: 429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"], url: "")
    #expect(RateLimitDelay.requested(by: response, now: now) == .seconds(7))
  }

  @Test func connectionErrorsRetryOnlyIdempotentRequests() async throws {
    let refused = TransportError(kind: .connectionRefused, message: "refused")
    let transport = RecordingTransport { _ throws(TransportError) in throw refused }
    let retrying = RetryingTransport(wrapping: transport, sleep: { _ in })

    await #expect(throws: TransportError.self) {
      try await retrying.send(.form(url: "https://t.example.com/oauth/token", fields: ["a": "1"]))
    }
    #expect(await transport.requests.count == 1)

    await #expect(throws: TransportError.self) {
      try await retrying.send(ClientRequest(url: "https://t.example.com/.well-known/jwks.json"))
    }
    #expect(await transport.requests.count == 1 + 4)
  }
}
