import AuthFlowCore
import AuthFlowReporting
import AuthFlowResults
import AuthFlowRuntime
import AuthFlowTestSupport
import Foundation
import Testing

/// The HTML report of a real failing run against the mock, opened in a real browser (headless
/// chromium): it renders without a console message (no script error, no Content-Security-Policy
/// violation), its script ran, the failing scenario's flow graph is drawn with a node per step
/// coloured by its result, and a screenshot is produced. Skipped — loudly, with the reason — when
/// chromium is not installed.
@Suite("The HTML report in a real browser", .serialized)
struct HTMLReportBrowserTests {
  static let failing = """
    scenario: Login with the wrong password, then what depended on it
    tags: [login, demo]
    client: native
    steps:
      - id: discovery
        http: { url: .well-known/openid-configuration }
        expect: { status: 200 }
      - id: login
        login: { username: "${{ tenant.users.alice.email }}", password: not-her-password }
        expect:
          id_token: { exists: true }
      - id: userinfo
        userinfo: { access_token: "${{ steps.login.access_token }}" }
      - id: refresh
        needs: [login]
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
    cleanup:
      - id: logout
        logout: {}
    """

  static let passing = """
    scenario: Alice logs in
    tags: [login]
    client: native
    steps:
      - id: login
        login: { username: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
        expect: { id_token.claims.email: "${{ tenant.users.alice.email }}" }
    """

  /// Skipped before it starts (the mock has no `kiosk` client): its planned flow is drawn, not run.
  static let skipped = """
    scenario: A kiosk signs in
    tags: [kiosk]
    client: kiosk
    steps:
      - id: login
        login: { username: "${{ tenant.users.alice.email }}", password: "${{ tenant.users.alice.password }}" }
      - id: profile
        userinfo: { access_token: "${{ steps.login.access_token }}" }
    """

  /// Runs the three scenarios and writes the HTML report into a fresh directory.
  static func writeReport() async throws -> (directory: URL, report: RunReport) {
    let secrets = SecretRegistry()
    let report = try await MockHarness.run([failing, passing, skipped], secrets: secrets)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-html-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let reporter = HTMLReporter(
      spec: ReporterSpec(name: "html", path: directory.appendingPathComponent("report.html").path),
      context: ReporterContext(secrets: secrets, output: FileSystemOutput()))
    try await reporter.finish(report)
    return (directory, report)
  }

  @Test(
    "The failing run renders: script ran, graph drawn, nodes coloured, no console message, a screenshot",
    .enabled(if: HeadlessChromium.path != nil, Comment(rawValue: HeadlessChromium.skipNotice)))
  func rendersInChromium() async throws {
    let (directory, report) = try await Self.writeReport()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(
      report.scenarios.map(\.status) == [.failed, .passed, .skipped], "\(report.scenarios.map(\.problemSummary))")
    let page = directory.appendingPathComponent("report.html")
    // The login step's exchange with the token endpoint is in the page, its password masked.
    let login = try #require(report.scenarios.first?.steps.first { $0.id == "login" })
    #expect(login.exchanges.contains { $0.contains("/oauth/token") && $0.contains("← 403") }, "\(login.exchanges)")
    let written = try String(contentsOf: page, encoding: .utf8)
    #expect(written.contains("/oauth/token  ← 403"))
    #expect(!written.contains("not-her-password"))

    let dom = try HeadlessChromium.dumpDOM(page)
    #expect(dom.status == 0, "\(dom.standardError.suffix(2000))")
    #expect(dom.consoleMessages.isEmpty, "the page wrote to the console: \(dom.consoleMessages)")
    let html = dom.standardOutput
    // The script ran to its end, and measured the graphs on screen: the failing scenario is open.
    #expect(html.contains(#"data-ready="true""#), "\(html.prefix(600))")
    #expect(html.contains(#"data-graphs-drawn="1""#), "\(html.prefix(600))")
    // One node per step of the failing flow, each coloured by its result.
    let nodes = Self.nodes(in: html)
    #expect(
      nodes["sc1"] == [
        "discovery": "passed", "login": "failed", "userinfo": "skipped", "refresh": "skipped",
        "logout": "passed",
      ])
    #expect(nodes["sc2"] == ["login": "passed"])
    // The scenario that never started: its planned flow, every node not run (white, dotted).
    #expect(nodes["sc3"] == ["login": "not run", "profile": "not run"])
    #expect(html.contains("Showing 3 of 3 scenarios"))

    let shot = directory.appendingPathComponent("failing.png").path
    let screenshot = try HeadlessChromium.screenshot(page, to: shot, width: 1100, height: 800)
    #expect(screenshot.status == 0, "\(screenshot.standardError.suffix(2000))")
    #expect(screenshot.consoleMessages.isEmpty, "\(screenshot.consoleMessages)")
    let png = try Data(contentsOf: URL(fileURLWithPath: shot))
    let size = try #require(HeadlessChromium.pngSize(png), "not a PNG")
    #expect(size.width == 1100 && size.height == 800)
    // A blank page compresses to a few hundred bytes; the summary, graph and text do not.
    #expect(png.count > 20_000, "\(png.count) bytes")
  }

  /// The filters work in a real browser: a click on a status checkbox, a tag chosen with the
  /// keyboard and text typed into the search change which scenarios are on screen and the
  /// "Showing N of M" line — real input events through the DevTools protocol, then what the page
  /// shows read back.
  @Test(
    "Operating the filters changes what is shown",
    .enabled(if: HeadlessChromium.path != nil, Comment(rawValue: HeadlessChromium.skipNotice)))
  func filtersChangeWhatIsShown() async throws {
    let (directory, _) = try await Self.writeReport()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = try await ReportPage.open(directory.appendingPathComponent("report.html"))
    defer { Task { await page.close() } }
    #expect(
      try await page.shown() == ReportPage.Shown(line: "Showing 3 of 3 scenarios", visible: ["sc1", "sc2", "sc3"]))

    // A click on "passed" hides the passing scenario.
    try await page.click(#"input[data-status="passed"]"#)
    #expect(try await page.shown() == ReportPage.Shown(line: "Showing 2 of 3 scenarios", visible: ["sc1", "sc3"]))
    try await page.click(#"input[data-status="passed"]"#)
    #expect(try await page.shown().visible == ["sc1", "sc2", "sc3"])

    // The tag filter, by keyboard: the first tag in the list (demo) is on the failing one only.
    try await page.focus("#tag")
    try await page.press("ArrowDown")
    #expect(try await page.value("#tag") == "demo")
    #expect(try await page.shown() == ReportPage.Shown(line: "Showing 1 of 3 scenarios", visible: ["sc1"]))
    try await page.press("ArrowUp")
    #expect(try await page.shown().visible == ["sc1", "sc2", "sc3"])

    // Text typed into the search: a step id of the skipped scenario's planned flow finds it.
    try await page.click("#search")
    try await page.type("profile")
    #expect(try await page.shown() == ReportPage.Shown(line: "Showing 1 of 3 scenarios", visible: ["sc3"]))
  }

  @Test(
    "The checks catch a broken page: a script the policy refuses is a console message, and nothing is drawn",
    .enabled(if: HeadlessChromium.path != nil, Comment(rawValue: HeadlessChromium.skipNotice)))
  func brokenPageIsCaught() async throws {
    let (directory, _) = try await Self.writeReport()
    defer { try? FileManager.default.removeItem(at: directory) }
    let page = directory.appendingPathComponent("report.html")
    let original = try String(contentsOf: page, encoding: .utf8)
    // One changed character: the script's hash no longer matches the Content-Security-Policy.
    let tampered = original.replacingOccurrences(of: "'use strict';", with: "'use strict'; ")
    #expect(tampered != original)
    try tampered.write(to: page, atomically: true, encoding: .utf8)
    let dom = try HeadlessChromium.dumpDOM(page)
    #expect(dom.consoleMessages.contains { $0.contains("Content Security Policy") }, "\(dom.consoleMessages)")
    #expect(!dom.standardOutput.contains(#"data-ready="true""#))
  }

  /// `step id → status` of each scenario's graph nodes (`<section id="sc1">` … `<g class="node …"
  /// data-step="…" data-status="…">`), read from the rendered DOM.
  static func nodes(in html: String) -> [String: [String: String]] {
    var result: [String: [String: String]] = [:]
    let sections = html.components(separatedBy: "<section ").dropFirst()
    for section in sections {
      guard let id = attribute("id", in: section) else { continue }
      var nodes: [String: String] = [:]
      for node in section.components(separatedBy: "<g class=\"node ").dropFirst() {
        if let step = attribute("data-step", in: node), let status = attribute("data-status", in: node) {
          nodes[step] = status
        }
      }
      result[id] = nodes
    }
    return result
  }

  static func attribute(_ name: String, in text: String) -> String? {
    guard let start = text.range(of: " \(name)=\"") ?? text.range(of: "\(name)=\"") else { return nil }
    let rest = text[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }
}
