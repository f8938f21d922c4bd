import AuthFlowCore
import AuthFlowResults
import Crypto
import Foundation
import Testing

@testable import AuthFlowReporting

@Suite struct HTMLReporterTests {
  private func render(_ report: RunReport, reveal: Bool = false) async throws -> String {
    let output = CapturedOutput()
    let reporter = HTMLReporter(
      spec: ReporterSpec(name: "html", path: "out/report.html"),
      context: ReporterContext(secrets: SecretRegistry(revealSecrets: reveal), output: output))
    try await reporter.finish(report)
    return try #require(await output.files["out/report.html"])
  }

  /// The text between `open` and the next `close`.
  private func between(_ text: String, _ open: String, _ close: String) -> String? {
    guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex)
    else { return nil }
    return String(text[start.upperBound..<end.lowerBound])
  }

  /// Offline and inert: the policy forbids everything but its own inline style and script, whose
  /// hashes it names; the page refers to nothing outside itself.
  @Test func isSelfContainedUnderAStrictPolicy() async throws {
    let html = try await render(ReportFixtures.run)
    let policy = try #require(between(html, #"<meta http-equiv="Content-Security-Policy" content=""#, "\""))
    #expect(policy.hasPrefix("default-src 'none';"))
    let script = try #require(between(html, "<script>", "</script>"))
    let style = try #require(between(html, "<style>", "</style>"))
    func hash(_ text: String) -> String {
      "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
    }
    #expect(policy.contains("script-src \(hash(script))"))
    #expect(policy.contains("style-src \(hash(style))"))
    #expect(html.components(separatedBy: "<script").count == 2, "one script only")
    for outside in [" src=", "<link", "@import", "url(http", "<iframe", "<img", "<form"] {
      #expect(!html.contains(outside), "\(outside)")
    }
    // Every link is an anchor in the page.
    let hrefs = html.components(separatedBy: #"href=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(!hrefs.isEmpty)
    #expect(hrefs.allSatisfy { $0.hasPrefix("#") }, "\(hrefs)")
    // No inline style attribute (the policy would refuse it).
    #expect(!html.contains(" style=\""))
  }

  @Test func summaryAndFilters() async throws {
    let html = try await render(ReportFixtures.run)
    #expect(html.contains("<h1>authflow: 6 scenarios: 2 passed, 2 failed, 1 error, 1 skipped</h1>"))
    for status in ["passed", "failed", "error", "skipped"] {
      #expect(html.contains(#"<input type="checkbox" checked data-status="\#(status)">"#), "\(status)")
    }
    #expect(!html.contains(#"data-status="interrupted">"#), "no filter for a status no scenario has")
    for tag in ["passwordless", "renew", "smoke"] { #expect(html.contains(#"<option value="\#(tag)">"#), "\(tag)") }
    #expect(html.contains(#"<option value="mock">mock</option>"#))
    #expect(html.components(separatedBy: "<section ").count - 1 == 6)
  }

  /// A failed scenario: open, its story (the step, the problem, the skipped dependants), its graph
  /// with each node coloured by the step's result, expected vs actual.
  @Test func failedScenarioTellsItsStory() async throws {
    let html = try await render(ReportFixtures.run)
    let section = try #require(
      html.components(separatedBy: "<section ").first { $0.contains("Refresh tokens rotate") })
    #expect(section.contains(#"data-status="failed""#))
    #expect(section.contains("<details open>"))
    #expect(section.contains("<strong>step &#39;reuse&#39; (Reuse the old token) failed after 3 attempts</strong>"))
    #expect(section.contains("skipped because &#39;reuse&#39; failed: family_revoked"))
    for (step, status) in [
      ("login", "passed"), ("reuse", "failed"), ("family_revoked", "skipped"), ("logout", "passed"),
    ] {
      #expect(
        section.contains(#"<g class="node st-\#(status)" data-step="\#(step)" data-status="\#(status)">"#),
        "\(step)")
    }
    // login → reuse → family_revoked, then the always edge into cleanup.
    #expect(section.components(separatedBy: #"<path class="edge""#).count - 1 == 2)
    #expect(section.components(separatedBy: #"<path class="edge always""#).count - 1 == 1)
    #expect(section.contains("cleanup (always runs)"))
    #expect(section.contains(#"<td class="expected">invalid_grant</td>"#))
    #expect(
      section.contains(#"<td class="actual">nothing at this path (the result has: access_token, refresh_token)</td>"#))
    // The step's exchange, and its result with secrets masked.
    #expect(section.contains("<code>→ POST https://tenant.example/oauth/token  ← 200 (12ms)</code>"))
    #expect(section.contains("refresh_token=***"))
  }

  /// A scenario skipped before it started draws the flow it planned, every node *not run* (white,
  /// dotted), with the reason; its steps are listed, not run.
  @Test func notStartedScenarioDrawsItsPlannedFlow() async throws {
    let html = try await render(ReportFixtures.run)
    let section = try #require(html.components(separatedBy: "<section ").first { $0.contains("Passwordless login") })
    #expect(section.contains("skipped: tenant &#39;mock&#39; lacks capability &#39;passwordless&#39;"))
    #expect(section.contains("Not started: none of its 3 steps ran: start, verify, cleanup logout."))
    for step in ["start", "verify", "logout"] {
      #expect(section.contains(#"<g class="node st-notrun" data-step="\#(step)" data-status="not run">"#), "\(step)")
    }
    // start → verify, then the always edge into cleanup.
    #expect(section.components(separatedBy: #"<path class="edge""#).count - 1 == 1)
    #expect(section.components(separatedBy: #"<path class="edge always""#).count - 1 == 1)
    #expect(section.components(separatedBy: #"<li class="step st-notrun""#).count - 1 == 3)
    #expect(section.contains("passwordless_login · needs start"))
  }

  /// The banner of a stopped run names what stopped it.
  @Test func interruptedBannerNamesTheCause() async throws {
    let html = try await render(ReportFixtures.interrupted)
    #expect(
      html.contains(
        #"<div class="banner">INTERRUPTED: the run was stopped by SIGTERM before every scenario finished;"#))
    var timedOut = ReportFixtures.interrupted
    timedOut.stopCause = .runTimeout("20m")
    #expect(try await render(timedOut).contains("the run was stopped by its --run-timeout of 20m before"))
  }

  /// Token claims are shown decoded; the token itself is masked.
  @Test func showsTokenClaimsNotTokens() async throws {
    let html = try await render(ReportFixtures.run)
    #expect(html.contains("token <code>access_token</code>"))
    #expect(html.contains("<tr><th>sub</th><td><code>&quot;auth0|alice&quot;</code></td></tr>"))
    #expect(html.contains("<tr><th>kid</th><td><code>&quot;k1&quot;</code></td></tr>"))
    let raw = try #require(ReportFixtures.jwt(subject: "auth0|alice").stringValue)
    #expect(!html.contains(raw))
    #expect(!html.contains("v1.MRrt-opaque-token"))
    #expect(try await render(ReportFixtures.run, reveal: true).contains(raw))
  }

  @Test func escapesEverythingItShows() async throws {
    let html = try await render(ReportFixtures.run)
    #expect(!html.contains("<new user>"))
    #expect(html.contains("prompt=&quot;login&quot; &lt;new user&gt;, 100%"))
    #expect(!html.contains("<b>Log in</b>"))
    #expect(html.contains("\\u{1B}[31mretry"))
  }

  /// The same page from the run and from its JSON report read back (what `report merge` does).
  @Test func sameFromJSON() async throws {
    let output = CapturedOutput()
    let json = JSONReporter(
      spec: ReporterSpec(name: "json", path: "r.json"),
      context: ReporterContext(secrets: SecretRegistry(), output: output))
    try await json.finish(ReportFixtures.run)
    let data = Data(try #require(await output.files["r.json"]).utf8)
    let decoded = try JSONReport.decode(data, name: "r.json").report
    for (a, b) in zip(decoded.scenarios, ReportFixtures.run.scenarios) {
      for (x, y) in zip(a.steps, b.steps) where (x.result == nil) != (y.result == nil) {
        Issue.record("\(x.id): \(String(describing: x.result)) vs \(String(describing: y.result))")
      }
    }
    let fromRun = try await render(ReportFixtures.run)
    let fromJSON = try await render(decoded)
    let differing = zip(fromJSON.split(separator: "\n"), fromRun.split(separator: "\n")).first { $0 != $1 }
    #expect(fromJSON == fromRun, "\(String(describing: differing))")
  }
}
