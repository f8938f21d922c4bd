import AuthFlowCore
import AuthFlowResults
import Foundation

/// Renders a redacted run report (tokens expanded, ``RunReport/expandingTokens()``) as one
/// self-contained HTML page; see ``HTMLReporter``. Written one scenario section at a time
/// (``render(into:)``), in report order, and nothing of a scenario is kept once its section is
/// written: the run's report may be read back from its spool, one scenario at a time.
///
/// The page's detail budget (``HTMLDetailBudget``) serves the scenarios a reader opens the page
/// for first, then the passing ones, and the summary at the top says what it left out. So the
/// budget is worked out before the page is written, without keeping any section: one pass over
/// the run (at ``init(report:revealSecrets:detailLimit:)``, with the tags and tenants) spends it
/// on the failing scenarios and measures what the passing ones ask; only when they do not all
/// fit in what is left does a second pass spend it on them. Writing then replays the same
/// decisions: failing scenarios from a fresh budget, passing ones from what the failing ones left.
struct HTMLDocument {
  var report: RunReport
  /// `--show-secrets`: secret-wrapped values are shown instead of `***`.
  var revealSecrets: Bool
  /// The bytes of exchanges, results and tokens the page holds (``HTMLDetailBudget``).
  let detailLimit: Int
  /// Every tag of the run, sorted, and its tenants in the order they first appear.
  private let tags: [String]
  private let tenants: [String]
  /// The budget once the scenarios shown in full have spent theirs (what the passing ones start
  /// from), and what the whole page leaves out.
  private let afterFull: HTMLDetailBudget
  private let leftOut: HTMLDetailBudget.LeftOut
  /// True when every exchange of every scenario fits in ``HTMLDetailBudget/allInFullLimit`` in
  /// full: the passing scenarios' exchanges are shown in full too, and the page leaves nothing out
  /// (a small run's page says nothing of what it would do to keep a big one small).
  private let passingInFull: Bool
  /// The conformance test plans the scenarios belong to (``AuthFlowResults/PlanTable``).
  private let plans: [PlanTable]

  init(report: RunReport, revealSecrets: Bool, detailLimit: Int = HTMLDetailBudget.defaultLimit) {
    self.report = report
    self.revealSecrets = revealSecrets
    self.detailLimit = detailLimit
    var tags: Set<String> = []
    var tenants: [String] = []
    var seen: Set<String> = []
    var full = HTMLDetailBudget(limit: detailLimit)
    // What the passing scenarios ask for, as if nothing limited it: summarised, and in full.
    var asked = HTMLDetailBudget(limit: .max)
    var askedInFull = HTMLDetailBudget(limit: .max)
    var plans = PlanTable.Builder()
    for scenario in report.scenarios {
      plans.add(scenario, tenant: report.tenant)
      tags.formUnion(scenario.tags)
      let tenant = scenario.tenant ?? report.tenant
      if seen.insert(tenant).inserted { tenants.append(tenant) }
      if HTMLDetailBudget.showsInFull(scenario) {
        Self.spend(scenario, full: true, revealSecrets: revealSecrets, budget: &full)
      } else {
        Self.spend(scenario, full: false, revealSecrets: revealSecrets, budget: &asked)
        Self.spend(scenario, full: true, revealSecrets: revealSecrets, budget: &askedInFull)
      }
    }
    self.tags = tags.sorted()
    self.tenants = tenants
    self.plans = plans.tablesBuilt
    afterFull = full
    passingInFull =
      full.leftOut.isEmpty && full.used <= min(detailLimit, HTMLDetailBudget.allInFullLimit) - askedInFull.used - 1
    if passingInFull {
      leftOut = HTMLDetailBudget.LeftOut()
    } else if full.used <= detailLimit - asked.used - 1 {
      // Everything the passing scenarios ask fits (and never spends the budget): none is cut.
      var leftOut = full.leftOut
      leftOut.summarisedExchanges += asked.leftOut.summarisedExchanges
      self.leftOut = leftOut
    } else {
      var rest = full
      for scenario in report.scenarios where !HTMLDetailBudget.showsInFull(scenario) {
        Self.spend(scenario, full: false, revealSecrets: revealSecrets, budget: &rest)
      }
      leftOut = rest.leftOut
    }
  }

  func render() -> String {
    ReportTextSink.collect { render(into: &$0) }
  }

  func render(into sink: inout ReportTextSink) {
    var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(HTMLAssets.contentSecurityPolicy)\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    html += "<meta name=\"referrer\" content=\"no-referrer\">\n"
    html += "<title>" + MarkupEscaping.html(HTMLMessages.pageTitle(report)) + "</title>\n"
    html += "<style>" + HTMLAssets.style + "</style>\n</head>\n<body>\n"
    html += header(leftOut: leftOut) + plans.map(planSection).joined() + filters() + "<main>\n"
    if report.scenarios.isEmpty { html += "<p class=\"reason\">\(HTMLMessages.noScenarios)</p>\n" }
    sink.write(html)
    // The same decisions as the passes above: the failing scenarios spend a fresh budget in report
    // order, the passing ones what the failing ones left.
    var full = HTMLDetailBudget(limit: detailLimit)
    var rest = afterFull
    for (index, scenario) in report.scenarios.enumerated() {
      if showsInFull(scenario) {
        sink.write(section(scenario, index: index, budget: &full))
      } else {
        sink.write(section(scenario, index: index, budget: &rest))
      }
    }
    html = "</main>\n<footer>" + MarkupEscaping.html(HTMLMessages.footer) + "</footer>\n"
    html += "<script>" + HTMLAssets.script + "</script>\n</body>\n</html>\n"
    sink.write(html)
  }

  /// Whether `scenario`'s exchanges are shown in full: it did not pass, or it warned
  /// (``HTMLDetailBudget/showsInFull(_:)``), or the whole run fits the page in full.
  private func showsInFull(_ scenario: ScenarioReport) -> Bool {
    passingInFull || HTMLDetailBudget.showsInFull(scenario)
  }

  /// Spends on `budget` what `scenario`'s section would (its steps' details), writing nothing.
  private static func spend(
    _ scenario: ScenarioReport, full: Bool, revealSecrets: Bool, budget: inout HTMLDetailBudget
  ) {
    guard scenario.started else { return }
    for step in scenario.steps { _ = details(of: step, full: full, revealSecrets: revealSecrets, budget: &budget) }
  }

  // MARK: - Summary and filters

  private func header(leftOut: HTMLDetailBudget.LeftOut) -> String {
    var html = "<header>\n<h1>" + MarkupEscaping.html(HTMLMessages.heading(report)) + "</h1>\n"
    html += "<div class=\"run\">" + MarkupEscaping.html(HTMLMessages.runLine(report)) + "</div>\n"
    if report.interrupted {
      html += "<div class=\"banner\">" + MarkupEscaping.html(HTMLMessages.interrupted(report)) + "</div>\n"
    }
    if let note = HTMLMessages.leftOut(leftOut, limit: detailLimit) {
      // Only summarised exchanges of passing scenarios: a note; anything cut by the budget: a warning.
      let kind = leftOut.exchanges + leftOut.results == 0 ? "note" : "omitted"
      html += "<div class=\"\(kind)\" id=\"left-out\">" + MarkupEscaping.html(note) + "</div>\n"
    }
    html += "<div class=\"counts\">"
    for status in HTMLStatusStyle.filterOrder {
      let count = report.count(status)
      if count == 0, status == .interrupted { continue }
      let label = status == .error && count != 1 ? "errors" : HTMLStatusStyle.label(status)
      html += "<span class=\"count \(HTMLStatusStyle.cssClass(status))\">\(count) \(label)</span>"
    }
    if report.warningCount > 0 {
      let label = report.warningCount == 1 ? "warning" : "warnings"
      html += "<span class=\"count st-warning\">\(report.warningCount) \(label)</span>"
    }
    return html + "</div>\n</header>\n"
  }

  private func filters() -> String {
    var html = "<div class=\"filters\">"
    for status in HTMLStatusStyle.filterOrder where report.count(status) > 0 {
      html +=
        "<label><input type=\"checkbox\" checked" + MarkupEscaping.htmlAttributes([("data-status", status.rawValue)])
        + "> " + MarkupEscaping.html(HTMLStatusStyle.label(status)) + " (\(report.count(status)))</label>"
    }
    html += "<label>tag <select id=\"tag\"><option value=\"\">any</option>"
    for tag in tags {
      html += "<option" + MarkupEscaping.htmlAttributes([("value", tag)]) + ">" + MarkupEscaping.html(tag) + "</option>"
    }
    html += "</select></label>"
    html += "<label>tenant <select id=\"tenant\"><option value=\"\">any</option>"
    for tenant in tenants {
      html +=
        "<option" + MarkupEscaping.htmlAttributes([("value", tenant)]) + ">" + MarkupEscaping.html(tenant) + "</option>"
    }
    html += "</select></label>"
    html += "<label><input type=\"search\" id=\"search\" placeholder=\"name, file or step\"></label>"
    html +=
      "<button type=\"button\" id=\"expand\">Expand all</button><button type=\"button\" id=\"collapse\">Collapse all</button>"
    return html + "<span id=\"shown\"></span></div>\n"
  }

  private func tenant(of scenario: ScenarioReport) -> String { scenario.tenant ?? report.tenant }

  // MARK: - A scenario

  private func section(_ scenario: ScenarioReport, index: Int, budget: inout HTMLDetailBudget) -> String {
    let anchor = "sc\(index + 1)"
    let status = scenario.status
    let searchText = ([scenario.name, scenario.file] + scenario.steps.map(\.id)).joined(separator: " ").lowercased()
    var html =
      "<section"
      + MarkupEscaping.htmlAttributes([
        ("class", "scenario \(HTMLStatusStyle.cssClass(status))"), ("id", anchor), ("data-status", status.rawValue),
        ("data-tags", scenario.tags.joined(separator: " ")), ("data-tenant", tenant(of: scenario)),
        ("data-search", searchText),
      ]) + ">\n"
    let open = status == .failed || status == .error || status == .interrupted
    html += "<details\(open ? " open" : "")><summary>"
    html += badge(status)
    if !scenario.warnings.isEmpty {
      let count = scenario.warnings.count
      html += " <span class=\"badge st-warning\">\(count) \(count == 1 ? "warning" : "warnings")</span>"
    }
    html += " <span class=\"name\">" + MarkupEscaping.html(scenario.name) + "</span>"
    var meta = "\(scenario.location) · \(DurationText.format(scenario.duration))"
    if tenants.count > 1 { meta += " · tenant \(tenant(of: scenario))" }
    html += " <span class=\"meta\">" + MarkupEscaping.html(meta)
    for tag in scenario.tags { html += "<span class=\"tag\">" + MarkupEscaping.html(tag) + "</span>" }
    html += "</span></summary>\n<div class=\"body\">\n"
    if let reason = scenario.skipReason {
      html += "<p class=\"reason\">" + MarkupEscaping.html("\(HTMLStatusStyle.label(status)): \(reason)") + "</p>\n"
    }
    if let planned = ReportMessages.plannedSteps(of: scenario) {
      html += "<p class=\"reason\">" + MarkupEscaping.html(HTMLMessages.notStarted(planned)) + "</p>\n"
    }
    html += story(scenario)
    let graph = HTMLFlowGraph(scenario: scenario, anchor: anchor).render()
    if !graph.isEmpty { html += "<div class=\"graph\">" + graph + "</div>\n" }
    if !scenario.steps.isEmpty {
      html += "<ol class=\"steps\">\n"
      let full = showsInFull(scenario)
      for (stepIndex, step) in scenario.steps.enumerated() {
        let anchor = HTMLFlowGraph.stepAnchor(anchor, index: stepIndex)
        html +=
          scenario.started
          ? self.step(step, in: scenario, anchor: anchor, full: full, budget: &budget)
          : plannedStep(step, anchor: anchor)
      }
      html += "</ol>\n"
    }
    return html + "</div></details></section>\n"
  }

  /// A conformance test plan as the OpenID Foundation's suite shows one: a row per module, its
  /// result, and for a module that did not pass the condition that decided it and its clause.
  private func planSection(_ table: PlanTable) -> String {
    var html = "<section class=\"plan\"><h2>" + MarkupEscaping.html(HTMLMessages.planHeading(table)) + "</h2>\n"
    html +=
      "<table><tr><th>module</th><th>tenant</th><th>result</th><th>condition</th><th>clause</th><th>detail</th></tr>\n"
    for row in table.rows {
      let result =
        "<span class=\"badge st-\(row.result.rawValue)\">" + MarkupEscaping.html(row.result.rawValue)
        + "</span>"
      let cells = [row.module, row.tenant ?? "", row.condition ?? "", row.clause ?? "", row.detail ?? ""].map(
        MarkupEscaping.html)
      let variant = row.variant.map { " <span class=\"variant\">" + MarkupEscaping.html($0) + "</span>" } ?? ""
      html +=
        "<tr><td><code>\(cells[0])</code>\(variant)</td><td>\(cells[1])</td><td>\(result)</td><td>\(cells[2])</td>"
      html += "<td>\(cells[3])</td><td>\(cells[4])</td></tr>\n"
    }
    return html + "</table></section>\n"
  }

  private func badge(_ status: Status?) -> String {
    "<span class=\"badge \(HTMLStatusStyle.cssClass(status))\">" + MarkupEscaping.html(HTMLStatusStyle.label(status))
      + "</span>"
  }

  /// Which step broke, its first problem, and what it took down with it.
  private func story(_ scenario: ScenarioReport) -> String {
    var html = ""
    for step in scenario.stepsThatDidNotPass {
      html += "<div class=\"story \(HTMLStatusStyle.cssClass(step.status))\">"
      html += "<strong>" + MarkupEscaping.html(ConsoleMessages.stepStatus(step)) + "</strong>"
      if let problem = step.problems.first {
        html += "<br>" + MarkupEscaping.html("\(problem.location(in: step)): \(problem.message)")
      }
      if let dependants = ReportMessages.skippedDependants(of: step, in: scenario) {
        html += "<br>" + MarkupEscaping.html(dependants)
      }
      html += "</div>\n"
    }
    return html
  }

  // MARK: - A step

  /// A step of a scenario that never started: what it would have been (action, `needs`, where),
  /// marked *not run*; the scenario's reason says why.
  private func plannedStep(_ step: StepReport, anchor: String) -> String {
    var meta = [step.action]
    if !step.needs.isEmpty { meta.append("needs " + step.needs.joined(separator: ", ")) }
    return "<li"
      + MarkupEscaping.htmlAttributes([
        ("class", "step \(HTMLStatusStyle.cssClass(nil))"), ("id", anchor), ("data-step", step.id),
      ]) + "><div class=\"planned\">" + badge(nil) + " " + MarkupEscaping.html(step.title)
      + " <span class=\"meta\">" + MarkupEscaping.html(meta.joined(separator: " · ") + " · \(step.location)")
      + "</span></div></li>\n"
  }

  private func step(
    _ step: StepReport, in scenario: ScenarioReport, anchor: String, full: Bool, budget: inout HTMLDetailBudget
  ) -> String {
    var html =
      "<li"
      + MarkupEscaping.htmlAttributes([
        ("class", "step \(HTMLStatusStyle.cssClass(step.status))"), ("id", anchor), ("data-step", step.id),
      ]) + ">"
    html += "<details\(step.didNotPass ? " open" : "")><summary>" + badge(step.status) + " "
    html += MarkupEscaping.html(step.title)
    var meta = [step.action, DurationText.format(step.duration)]
    if step.attempts > 1 { meta.append("\(step.attempts) attempts") }
    if !step.needs.isEmpty { meta.append("needs " + step.needs.joined(separator: ", ")) }
    html +=
      " <span class=\"meta\">" + MarkupEscaping.html(meta.joined(separator: " · ") + " · \(step.location)")
      + "</span></summary>\n<div class=\"inner\">\n"
    if let reason = step.skipReason { html += "<p class=\"reason\">" + MarkupEscaping.html(reason) + "</p>\n" }
    if !step.problems.isEmpty { html += problems(step) }
    if let dependants = ReportMessages.skippedDependants(of: step, in: scenario) {
      html += "<p class=\"reason\">" + MarkupEscaping.html(dependants) + "</p>\n"
    }
    html += Self.details(of: step, full: full, revealSecrets: revealSecrets, budget: &budget)
    return html + "</div></details></li>\n"
  }

  private func problems(_ step: StepReport) -> String {
    var html = "<table class=\"problems\"><tr><th>where</th><th>problem</th><th>expected</th><th>actual</th></tr>"
    for problem in step.problems {
      let check = [problem.path, problem.matcher].compactMap { $0 }.joined(separator: " ")
      let warning = problem.severity == .warning
      html += warning ? "<tr class=\"st-warning\"><td>warning: <code>" : "<tr><td><code>"
      html += MarkupEscaping.html("\(problem.location(in: step))") + "</code>"
      if !check.isEmpty { html += "<br><code>" + MarkupEscaping.html(check) + "</code>" }
      html += "</td><td>" + MarkupEscaping.html(problem.message) + "</td>"
      html += "<td class=\"expected\">" + MarkupEscaping.html(problem.expected ?? "") + "</td>"
      html += "<td class=\"actual\">" + MarkupEscaping.html(problem.actual ?? "") + "</td></tr>"
    }
    return html + "</table>\n"
  }

  /// A step's decoded tokens, exchanges (in full, or by their first lines) and result, each
  /// within the page's budget; a note says what did not fit.
  private static func details(
    of step: StepReport, full: Bool, revealSecrets: Bool, budget: inout HTMLDetailBudget
  ) -> String {
    var html = ""
    var leftOutExchanges = 0
    var leftOutResult = false
    if let result = step.result, !budget.isSpent {
      for (path, token) in Self.tokens(in: result, path: []) {
        let table = Self.token(token, path: path, revealSecrets: revealSecrets)
        if budget.take(table.utf8.count) { html += table }
      }
    }
    for exchange in step.exchanges {
      let text = full ? Self.exchange(exchange) : Self.exchangeLine(exchange)
      if budget.take(text.utf8.count) {
        html += text
        if !full { budget.noteSummarised(1) }
      } else {
        leftOutExchanges += 1
      }
    }
    if let result = step.result {
      var shown = false
      if !budget.isSpent {
        let text =
          "<details><summary>result (<code>steps." + MarkupEscaping.html(step.id) + "</code>)</summary><pre>"
          + MarkupEscaping.html(result.jsonText(pretty: true, revealSecrets: revealSecrets)) + "</pre></details>\n"
        shown = budget.take(text.utf8.count)
        if shown { html += text }
      }
      leftOutResult = !shown
    }
    if leftOutExchanges > 0 || leftOutResult {
      budget.noteLeftOut(exchanges: leftOutExchanges, results: leftOutResult ? 1 : 0)
      let note = HTMLMessages.stepLeftOut(exchanges: leftOutExchanges, result: leftOutResult, limit: budget.limit)
      html += "<p class=\"omitted\">" + MarkupEscaping.html(note) + "</p>\n"
    }
    return html
  }

  /// One HTTP exchange: its first line (request) and the status line as the summary.
  private static func exchange(_ text: String) -> String {
    "<details class=\"exchange\"><summary><code>" + MarkupEscaping.html(Self.exchangeSummary(text))
      + "</code></summary><pre>"
      + MarkupEscaping.html(text) + "</pre></details>\n"
  }

  /// An exchange of a passing scenario: its request line and status only.
  private static func exchangeLine(_ text: String) -> String {
    "<div class=\"exchange-line\"><code>" + MarkupEscaping.html(Self.exchangeSummary(text)) + "</code></div>\n"
  }

  /// `→ POST https://…/oauth/token  ← 200 OK`.
  static func exchangeSummary(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let request = lines.first.map(String.init) ?? text
    let answer = lines.first { $0.hasPrefix("←") || $0.hasPrefix("✗") }.map { "  " + $0 } ?? ""
    return request + answer
  }

  /// A decoded token: signature state, header and claims (times also as UTC dates).
  private static func token(_ token: [String: Value], path: [String], revealSecrets: Bool) -> String {
    let name = path.joined(separator: ".")
    var html = "<h4>token <code>" + MarkupEscaping.html(name) + "</code>"
    switch token["signature_valid"] {
    case .bool(true)?: html += " · signature verified"
    case .bool(false)?: html += " · signature NOT valid"
    default: break
    }
    html += "</h4>"
    for part in ["header", "claims"] {
      guard case .object(let members)? = token[part] else { continue }
      html += "<table class=\"\(part)\"><tr><th colspan=\"2\">\(part)</th></tr>"
      for key in members.keys.sorted() {
        let value = members[key] ?? .null
        var text = value.jsonText(revealSecrets: revealSecrets)
        if ["exp", "iat", "nbf", "auth_time"].contains(key), let seconds = value.doubleValue {
          text += "  (" + Timestamp.iso8601(Date(timeIntervalSince1970: seconds)) + ")"
        }
        html +=
          "<tr><th>" + MarkupEscaping.html(key) + "</th><td><code>" + MarkupEscaping.html(text)
          + "</code></td></tr>"
      }
      html += "</table>"
    }
    return html + "\n"
  }

  /// The expanded JWTs in a result (`{ raw, header, claims, signature_valid }`), with their paths,
  /// in key order.
  static func tokens(in value: Value, path: [String]) -> [([String], [String: Value])] {
    switch value {
    case .object(let members):
      if Set(members.keys) == ["raw", "header", "claims", "signature_valid"] { return [(path, members)] }
      return members.keys.sorted().flatMap { key in tokens(in: members[key] ?? .null, path: path + [key]) }
    case .array(let items):
      return items.enumerated().flatMap { index, item in tokens(in: item, path: path + [String(index)]) }
    case .secret(let inner):
      return tokens(in: inner, path: path)
    default:
      return []
    }
  }
}
