import AuthFlowResults
import Foundation
import Testing

@testable import AuthFlowMonitor

/// The status page is read in a browser: a scenario name, a file name or a problem written to
/// attack it (markup, a script, an attribute breakout) is shown as text.
@Suite struct StatusPageTests {
  @Test func hostileTextsAreEscaped() {
    let attack = #"<script>alert(1)</script>"><img src=x onerror=alert(2)>"#
    let entry = MonitorResults.Entry(
      id: "mock/\(attack).yaml#0", scenario: attack, file: "\(attack).yaml", tenant: attack, interval: .seconds(60),
      latest: nil,
      history: [.init(status: .failed, startedAt: Date(), duration: .seconds(1), problem: attack)])
    let page = StatusPage.render(
      MonitorResults.Snapshot(
        entries: [entry], loadedAt: Date(), reloadError: attack, ready: true, tenants: [(attack, attack)]))
    #expect(!page.contains("<script>alert"))
    #expect(!page.contains("<img"))
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    // The page runs no script at all: its policy says so.
    #expect(StatusPage.contentSecurityPolicy.contains("default-src 'none'"))
    #expect(!StatusPage.contentSecurityPolicy.contains("script-src"))
  }
}
