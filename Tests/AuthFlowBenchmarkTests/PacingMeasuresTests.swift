import AuthFlowHTTP
import AuthFlowMockTenant
import Foundation
import Testing

@testable import AuthFlowBenchmark

/// The pacing rows' burst against the mock's rate limit (20 requests per 2 s window): paced, no
/// request is answered 429; unpaced, the same burst is — so the paced check would fail without
/// pacing. Counts only; no timing is asserted.
@Suite struct PacingMeasuresTests {
  @Test func pacedBurstsStayUnderTheMocksLimitAndUnpacedOnesDoNot() async throws {
    var fixture = try #require(FixtureLoader.loadDefault().fixture)
    fixture.settings.rateLimitPerMinute = PacingMeasures.limit
    fixture.settings.rateLimitWindow = PacingMeasures.window
    let handle = try await MockTenantServer.start(fixture: fixture)
    let live = LiveTransport()
    let url = handle.baseURL + "userinfo"
    let unpaced = await PacingMeasures.burst(url: url, requests: 30, jobs: 4, paced: false, live: live)
    try await Task.sleep(for: .seconds(PacingMeasures.window + 1))
    let paced = await PacingMeasures.burst(url: url, requests: 30, jobs: 4, paced: true, live: live)
    try? await live.shutdown()
    await handle.stop()
    #expect(unpaced.tooMany > 0)
    #expect(paced.tooMany == 0)
    #expect(paced.failed == 0)
  }

  @Test func theMockRefusesAWindowOutOfRange() {
    let text = "tenant:\n  rate_limit_window: 0\n"
    let loaded = FixtureLoader.load(text: text, file: "fixture.yaml")
    #expect(loaded.diagnostics.contains { $0.message.contains("rate_limit_window") })
  }
}
