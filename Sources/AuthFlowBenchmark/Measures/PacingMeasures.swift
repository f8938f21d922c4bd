import AuthFlowHTTP
import AuthFlowMockTenant
import Foundation
import Synchronization

/// The pacing rows: one burst of requests from several jobs against the embedded mock's rate
/// limit, sent through the run's transport stack (`RetryingTransport` over the live client) once
/// unpaced and once paced (`PacedTransport`), each row's samples its wall time and its note the
/// number of 429s the mock answered. Pacing should finish the same burst with no 429 and no
/// failed request, in about the time the limit allows.
public struct PacingMeasures: Sendable {
  public var options: BenchmarkOptions

  /// The mock's limit: requests per window per path, and the window (seconds).
  static let limit = 20
  static let window = 2

  public init(options: BenchmarkOptions) {
    self.options = options
  }

  /// How many requests the burst sends, from how many jobs.
  var requests: Int { options.pacingRequests }
  var jobs: Int { 4 }

  /// Both rows, unpaced first.
  public func all() async -> [BenchmarkResult] {
    let measure = "\(requests) requests, \(jobs) jobs, limit \(Self.limit) per \(Self.window)s"
    let handle: MockTenantServer.Handle
    do {
      guard var fixture = FixtureLoader.loadDefault().fixture else {
        throw BenchTenant.Failure.noDefaultFixture
      }
      fixture.settings.rateLimitPerMinute = Self.limit
      fixture.settings.rateLimitWindow = Self.window
      handle = try await MockTenantServer.start(fixture: fixture)
    } catch {
      return [false, true].map { paced in
        .failed(
          id: Self.id(paced: paced), measure: Self.name(measure, paced: paced), unit: "ms", target: nil,
          reason: String(describing: error))
      }
    }
    let live = LiveTransport()
    var results: [BenchmarkResult] = []
    for paced in [false, true] {
      var samples: [Double] = []
      var tooMany = 0
      var failed = 0
      for _ in 0..<options.largeSamples {
        // Each round starts on a fresh window: the last one's has passed.
        try? await Task.sleep(for: .seconds(Self.window + 1))
        let url = handle.baseURL + "userinfo"
        let burst = await Self.burst(url: url, requests: requests, jobs: jobs, paced: paced, live: live)
        samples.append(burst.wallTime.milliseconds)
        tooMany += burst.tooMany
        failed += burst.failed
      }
      results.append(
        BenchmarkResult(
          id: Self.id(paced: paced), measure: Self.name(measure, paced: paced), unit: "ms", samples: samples,
          iterations: samples.count * requests, target: nil,
          note: "429s answered: \(tooMany) in \(samples.count) round(s); requests that ended in a 429: \(failed)"))
    }
    try? await live.shutdown()
    await handle.stop()
    return results
  }

  static func id(paced: Bool) -> String { paced ? "pacing_paced" : "pacing_unpaced" }

  static func name(_ measure: String, paced: Bool) -> String {
    "rate limit: \(measure), \(paced ? "paced" : "unpaced")"
  }

  struct Burst {
    var wallTime: Duration
    var tooMany: Int
    var failed: Int
  }

  /// Sends `requests` GETs of `url` from `jobs` tasks through the run's transport stack.
  static func burst(url: String, requests: Int, jobs: Int, paced: Bool, live: LiveTransport) async -> Burst {
    let counting = CountingTransport(base: live)
    let sent: any HTTPTransport = paced ? PacedTransport(wrapping: counting, pacer: RateLimitPacer()) : counting
    let transport = RetryingTransport(wrapping: sent)
    let started = ContinuousClock.now
    let failed = await withTaskGroup(of: Int.self) { group in
      for job in 0..<jobs {
        group.addTask {
          var failed = 0
          for _ in stride(from: job, to: requests, by: jobs) {
            let response = try? await transport.send(HTTPRequest(url: url))
            if response?.status == 429 || response == nil { failed += 1 }
          }
          return failed
        }
      }
      return await group.reduce(0, +)
    }
    return Burst(wallTime: ContinuousClock.now - started, tooMany: counting.tooMany, failed: failed)
  }
}

/// Counts the 429 answers of the transport it wraps.
final class CountingTransport: HTTPTransport {
  let base: any HTTPTransport
  private let count = Mutex(0)

  init(base: any HTTPTransport) {
    self.base = base
  }

  var tooMany: Int { count.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
    let response = try await base.send(request)
    if response.status == 429 { count.withLock { $0 += 1 } }
    return response
  }
}
