import AuthFlowHTTP
import AuthFlowMockTenant
import Foundation
import Testing

@testable import AuthFlowBenchmark

/// The pacing rows' burst against the mock's rate limit (20 requests per 2 s window): paced, no
/// request is answered 429, however slow the machine. The control sends the same burst unpaced at
/// a mock whose window is a minute (so a slow machine cannot spread it over windows): it is
/// answered 429 — so the paced check would fail without pacing. Counts only; no timing is asserted.
@Suite struct PacingMeasuresTests {
  static func mock(window: Int) async throws -> MockTenantServer.Handle {
    var fixture = try #require(FixtureLoader.loadDefault().fixture)
    fixture.settings.rateLimitPerMinute = PacingMeasures.limit
    fixture.settings.rateLimitWindow = window
    return try await MockTenantServer.start(fixture: fixture)
  }

  @Test func pacedBurstsStayUnderTheMocksLimit() async throws {
    let handle = try await Self.mock(window: PacingMeasures.window)
    let live = LiveTransport()
    let paced = await PacingMeasures.burst(
      url: handle.baseURL + "userinfo", requests: 30, jobs: 4, paced: true, live: live)
    try? await live.shutdown()
    await handle.stop()
    #expect(paced.tooMany == 0)
    #expect(paced.failed == 0)
  }

  @Test func theSameBurstUnpacedRunsIntoTheLimit() async throws {
    let handle = try await Self.mock(window: 60)
    let live = LiveTransport()
    let counting = CountingTransport(base: live)
    // Every failure is collected, not thrown: the client and the mock are stopped whatever happens.
    let failures = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<4 {
        group.addTask {
          var failures: [String] = []
          for _ in 0..<8 {
            do {
              _ = try await counting.send(HTTPRequest(url: handle.baseURL + "userinfo"))
            } catch {
              failures.append(String(describing: error))
            }
          }
          return failures
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    try? await live.shutdown()
    await handle.stop()
    #expect(failures.isEmpty, "\(failures)")
    #expect(counting.tooMany == 32 - PacingMeasures.limit)
  }

  @Test func theMockRefusesAWindowOutOfRange() {
    let text = "tenant:\n  rate_limit_window: 0\n"
    let loaded = FixtureLoader.load(text: text, file: "fixture.yaml")
    #expect(loaded.diagnostics.contains { $0.message.contains("rate_limit_window") })
  }
}
