import AuthFlowCore
import AuthFlowResults
import Foundation
import Synchronization
import Testing

@testable import AuthFlowReporting

/// The HTML report's size is bounded (``HTMLDetailBudget``): a failing scenario's exchanges are
/// shown in full, a passing one's by their first lines unless the whole run fits in full,
/// everything within one budget, and the page says what it left out — on the step and under the
/// summary.
@Suite struct HTMLDetailBudgetTests {
  /// A 4 KiB exchange, as `--trace` prints one (the body is what a budget is for).
  static func exchange(_ index: Int) -> String {
    "→ POST https://tenant.example/oauth/token?n=\(index)\n  Content-Type: application/json\n\n  "
      + String(repeating: "x", count: 4000) + "\n← 200 (3ms)\n  Content-Type: application/json\n\n  {}"
  }

  static func scenario(_ name: String, status: Status, exchanges: Int) -> ScenarioReport {
    let file = "scenarios/\(name).yaml"
    let location = ReportFixtures.location(file, 5, 5)
    let problems =
      status == .failed ? [Problem(.expectation, "expected status to equal 201, found 200", at: location)] : []
    return ScenarioReport(
      name: name, file: file, location: ReportFixtures.location(file, 1, 1), tags: [], status: status,
      duration: .milliseconds(10),
      steps: [
        StepReport(
          id: "call", name: "call", action: "http", phase: .main, location: location, status: status,
          duration: .milliseconds(10), attempts: 1, problems: problems, result: ["status": 200],
          exchanges: (0..<exchanges).map(Self.exchange))
      ])
  }

  static func render(_ report: RunReport, limit: Int) -> String {
    HTMLDocument(report: report, revealSecrets: false, detailLimit: limit).render()
  }

  static let report = RunReport(
    tenant: "mock", startedAt: ReportFixtures.startedAt, duration: .seconds(1),
    scenarios: [
      scenario("passes", status: .passed, exchanges: 20), scenario("fails", status: .failed, exchanges: 20),
    ], interrupted: false)

  /// A run whose exchanges in full pass ``HTMLDetailBudget/allInFullLimit`` (600 of 4 KiB in a
  /// passing scenario): the failing scenario's in full, the passing one's by their first lines.
  @Test func failingScenariosInFullPassingOnesByTheirFirstLines() throws {
    var report = Self.report
    report.scenarios = ScenarioReports([
      Self.scenario("passes", status: .passed, exchanges: 600), Self.scenario("fails", status: .failed, exchanges: 20),
    ])
    let html = Self.render(report, limit: HTMLDetailBudget.defaultLimit)
    let sections = html.components(separatedBy: "<section ")
    let passing = try #require(sections.first { $0.contains(#"id="sc1""#) })
    let failing = try #require(sections.first { $0.contains(#"id="sc2""#) })
    #expect(failing.components(separatedBy: #"<details class="exchange">"#).count - 1 == 20)
    #expect(failing.contains(String(repeating: "x", count: 4000)))
    #expect(passing.components(separatedBy: #"<div class="exchange-line">"#).count - 1 == 600)
    #expect(!passing.contains(String(repeating: "x", count: 100)))
    #expect(passing.contains("<code>→ POST https://tenant.example/oauth/token?n=3  ← 200 (3ms)</code>"))
    #expect(
      html.contains(
        #"<div class="note" id="left-out">Left out of this page to keep it small: the headers and bodies of 600 exchanges of passing scenarios (their request and status lines are shown). The JSON report (--reporter json:FILE) has them all.</div>"#
      ))
  }

  /// A small run's page (40 exchanges of 4 KiB) shows every exchange in full, the passing
  /// scenario's too, and says nothing of keeping it small: nothing was left out.
  @Test func aSmallRunShowsEverythingInFullAndLeavesNothingOut() throws {
    let html = Self.render(Self.report, limit: HTMLDetailBudget.defaultLimit)
    let sections = html.components(separatedBy: "<section ")
    let passing = try #require(sections.first { $0.contains(#"id="sc1""#) })
    #expect(passing.components(separatedBy: #"<details class="exchange">"#).count - 1 == 20)
    #expect(!passing.contains(#"<div class="exchange-line">"#))
    #expect(!html.contains(#"id="left-out""#))
    #expect(!html.contains("Left out of this page"))
  }

  /// With a budget of 32 KiB, the failing scenario takes it first (seven of its 4 KiB exchanges
  /// fit), the rest is left out with a note on the step and one under the summary, and the
  /// page's details stay within the budget.
  @Test func aSpentBudgetLeavesTheRestOutAndSaysSo() throws {
    let limit = 32 * 1024
    let html = Self.render(Self.report, limit: limit)
    let sections = html.components(separatedBy: "<section ")
    let failing = try #require(sections.first { $0.contains(#"id="sc2""#) })
    let shown = failing.components(separatedBy: #"<details class="exchange">"#).count - 1
    #expect(shown == 7, "\(shown)")
    #expect(
      failing.contains(
        "\(20 - shown) exchanges left out: the page&#39;s budget of 32 KiB for exchanges and results was spent (the JSON report has them)."
      ))
    #expect(html.contains(#"<div class="omitted" id="left-out">"#))
    #expect(html.contains("past the page&#39;s budget of 32 KiB for exchanges and results"))
    // Everything the details added to the page is within the budget.
    let bare = Self.render(Self.report, limit: 0)
    #expect(html.utf8.count - bare.utf8.count <= limit + 2_000, "\(html.utf8.count - bare.utf8.count)")
    #expect(bare.contains("20 exchanges and the result left out"))
  }

  /// 1,000 scenarios of twenty 4 KiB exchanges each (80 MB of exchanges) give a page of a few
  /// MB, the failing scenarios' exchanges all in full.
  @Test func aThousandScenariosStayBounded() {
    var report = Self.report
    report.scenarios = ScenarioReports(
      (0..<1000).map { Self.scenario("s\($0)", status: $0 % 100 == 0 ? .failed : .passed, exchanges: 20) })
    let html = Self.render(report, limit: HTMLDetailBudget.defaultLimit)
    #expect(html.utf8.count < HTMLDetailBudget.defaultLimit + 4 * 1024 * 1024, "\(html.utf8.count) bytes")
    // The ten failing scenarios' exchanges are all there in full.
    #expect(html.components(separatedBy: #"<details class="exchange">"#).count - 1 == 200)
  }

  /// Scenarios read one at a time (from a run's spool) give the same page as scenarios in
  /// memory, whatever the budget leaves out, and none is kept: the page is worked out and
  /// written in at most three reads of each scenario (two when the passing ones all fit).
  @Test(arguments: [0, 6 * 1024, 40 * 1024, 100 * 1024, HTMLDetailBudget.defaultLimit])
  func scenariosReadOneAtATimeGiveTheSamePage(limit: Int) {
    let scenarios = (0..<12).map {
      Self.scenario("s\($0)", status: $0 % 4 == 1 ? .failed : .passed, exchanges: 3 + $0 % 5)
    }
    var inMemory = Self.report
    inMemory.scenarios = ScenarioReports(scenarios)
    let reads = Mutex(0)
    var produced = inMemory
    // With its totals known, as a spool gives them.
    produced.scenarios = ScenarioReports(count: scenarios.count, summary: inMemory.scenarios.summary) { position in
      reads.withLock { $0 += 1 }
      return scenarios[position]
    }
    let page = Self.render(inMemory, limit: limit)
    #expect(Self.render(produced, limit: limit) == page)
    let passes = reads.withLock { $0 } / scenarios.count
    #expect(passes <= 3, "\(passes) reads of each scenario")
    if limit == HTMLDetailBudget.defaultLimit {
      #expect(passes == 2)
      // Everything fits in full: nothing is left out, and the page says nothing of it.
      #expect(!page.contains(#"id="left-out""#))
    } else {
      // The smaller budgets cut something, and the page says so.
      #expect(page.contains(#"id="left-out""#))
    }
  }

  /// The failing scenario takes the budget first though it comes after a passing one that
  /// would spend it all (400 exchanges of ~90 bytes in a budget of 32 KiB): its seven 4 KiB
  /// exchanges are in full, and the passing one gets what is left — from memory or read one
  /// scenario at a time alike.
  @Test func failingScenariosTakeTheBudgetFirstWhereverTheyAre() throws {
    var report = Self.report
    let scenarios = [
      Self.scenario("passes", status: .passed, exchanges: 400), Self.scenario("fails", status: .failed, exchanges: 20),
    ]
    let limit = 32 * 1024
    for produced in [false, true] {
      report.scenarios =
        produced
        ? ScenarioReports(count: 2, summary: ScenarioReports(scenarios).summary) { scenarios[$0] }
        : ScenarioReports(scenarios)
      let html = Self.render(report, limit: limit)
      let sections = html.components(separatedBy: "<section ")
      let failing = try #require(sections.first { $0.contains(#"id="sc2""#) })
      let passing = try #require(sections.first { $0.contains(#"id="sc1""#) })
      #expect(failing.components(separatedBy: #"<details class="exchange">"#).count - 1 == 7)
      let lines = passing.components(separatedBy: #"<div class="exchange-line">"#).count - 1
      #expect(lines > 0 && lines < 400, "\(lines)")
    }
  }
}
