import AuthFlowCore
import AuthFlowResults

/// Renders a redacted run report as JUnit XML.
///
/// Layout: a `<testsuites>` root with the run's totals, then one `<testsuite>` per scenario file
/// (named after the file, in the order files first appear), one `<testcase>` per scenario instance
/// (`name` = instance name, `classname` = file path, plus `file` and `line`, which GitHub and GitLab
/// test reporters use to link to the YAML). Jenkins shows suites per file this way; GitLab and the
/// GitHub JUnit actions group by `classname`/`file` too. A failed scenario has one `<failure>`
/// (`message` = the failing step and the `file:line:col: message` of its first problem, `type` = its
/// kind, body = every problem of every step that did not pass, expected vs actual, and the steps
/// skipped because of it); an environment error has an `<error>`; a skipped one a
/// `<skipped message="reason"/>`. An interrupted scenario (cut short, or never started, by a signal
/// or a closed standard output) is an `<error type="interrupted">` whose message says which — an
/// error, not a skip, so that CI views show it red: it never held — and counts in `errors`. Each
/// suite carries the tenant (and `interrupted`, with `stop_cause` when known, when the run was
/// stopped) as properties; an interrupted run also starts with an `INTERRUPTED` comment naming
/// the cause. Warnings
/// (checks written `severity: warning`) do not fail a test case: they are lines of its
/// `<system-out>` step log, `warning: file:line:col: message` each, which CI views show beside the
/// test.
///
/// Every scenario that ran steps has a `<system-out>` with one line per step (status, time, skip
/// reason, problems with expected vs actual): GitLab, Jenkins and the GitHub JUnit actions show it
/// with the test case, so the steps are visible without turning each into a test case of its own
/// (docs/ci.md says why). A scenario that never started (skipped before its first step, or
/// never reached by a stopped run) lists there the steps it planned, none run.
///
/// A comparison run (`--tenant a,b`) has one suite per file and tenant, named
/// `file [tenant: NAME]` with that tenant as its `tenant` property, and test cases named
/// `scenario [tenant: NAME]` (as matrix instances are named), so CI views keep them apart.
struct JUnitDocument {
  var report: RunReport

  func render() -> String {
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    if report.interrupted { xml += "<!-- \(JUnitMessages.interruptedComment(report)) -->\n" }
    xml += "<testsuites" + MarkupEscaping.xmlAttributes(totals(of: report.scenarios, name: "authflow")) + ">\n"
    for (suite, scenarios) in suites() {
      xml +=
        "  <testsuite"
        + MarkupEscaping.xmlAttributes(
          totals(of: scenarios, name: suite.name) + [("timestamp", Timestamp.junit(report.startedAt))])
      xml += ">\n"
      xml += properties(tenant: suite.tenant ?? report.tenant)
      for scenario in scenarios { xml += testcase(scenario) }
      xml += "  </testsuite>\n"
    }
    xml += "</testsuites>\n"
    return xml
  }

  /// A suite: a scenario file, or in a comparison run a file on one tenant.
  private struct Suite: Hashable {
    var file: String
    var tenant: String?

    /// `login.yaml`, or `login.yaml [tenant: mock]` in a comparison run.
    var name: String { tenant.map { "\(file) [tenant: \($0)]" } ?? file }
  }

  /// Scenarios grouped by suite, suites in the order they first appear.
  private func suites() -> [(Suite, [ScenarioReport])] {
    var order: [Suite] = []
    var groups: [Suite: [ScenarioReport]] = [:]
    for scenario in report.scenarios {
      let suite = Suite(file: scenario.file, tenant: scenario.tenant)
      if groups[suite] == nil { order.append(suite) }
      groups[suite, default: []].append(scenario)
    }
    return order.map { ($0, groups[$0] ?? []) }
  }

  private func totals(of scenarios: [ScenarioReport], name: String) -> [(String, String)] {
    let duration = scenarios.reduce(Duration.zero) { $0 + $1.duration }
    let time = name == "authflow" ? report.duration : duration
    return [
      ("name", name),
      ("tests", String(scenarios.count)),
      ("failures", String(scenarios.count { $0.status == .failed })),
      ("errors", String(scenarios.count { $0.status == .error || $0.status == .interrupted })),
      ("skipped", String(scenarios.count { $0.status == .skipped })),
      ("time", time.secondsText),
    ]
  }

  private func properties(tenant: String) -> String {
    var xml = "    <properties>\n"
    xml += "      <property" + MarkupEscaping.xmlAttributes([("name", "tenant"), ("value", tenant)]) + "/>\n"
    if report.interrupted {
      xml += "      <property" + MarkupEscaping.xmlAttributes([("name", "interrupted"), ("value", "true")]) + "/>\n"
      if let cause = report.stopCause {
        xml +=
          "      <property" + MarkupEscaping.xmlAttributes([("name", "stop_cause"), ("value", cause.description)])
          + "/>\n"
      }
    }
    return xml + "    </properties>\n"
  }

  private func testcase(_ scenario: ScenarioReport) -> String {
    let attributes = MarkupEscaping.xmlAttributes([
      ("name", scenario.name), ("classname", scenario.file), ("file", scenario.file),
      ("line", String(scenario.location.line)), ("time", scenario.duration.secondsText),
    ])
    var body: String?
    switch scenario.status {
    case .passed: body = nil
    case .skipped:
      body =
        "<skipped" + MarkupEscaping.xmlAttributes([("message", scenario.skipReason ?? JUnitMessages.skipped)]) + "/>"
    case .failed: body = problemElement("failure", scenario)
    case .error: body = problemElement("error", scenario)
    case .interrupted: body = interruptedElement(scenario)
    }
    // Every step, in the order they finished, with its status, time and problems: what CI views
    // show as the test's standard output.
    let log =
      scenario.steps.isEmpty
      ? nil : "<system-out>" + MarkupEscaping.xml(JUnitMessages.stepLog(scenario)) + "</system-out>"
    let children = [body, log].compactMap { $0 }
    guard !children.isEmpty else { return "    <testcase\(attributes)/>\n" }
    return "    <testcase\(attributes)>\n" + children.map { "      \($0)\n" }.joined() + "    </testcase>\n"
  }

  /// `<error type="interrupted">` with the reason, and the steps that had finished or were cut
  /// short (for a scenario that never started, the `<system-out>` lists its planned steps).
  private func interruptedElement(_ scenario: ScenarioReport) -> String {
    let message = "\(scenario.location): \(scenario.skipReason ?? JUnitMessages.interrupted)"
    let steps = scenario.started ? scenario.steps.map(JUnitMessages.stepLine) : []
    let details = ([message] + steps).joined(separator: "\n")
    return "<error" + MarkupEscaping.xmlAttributes([("message", message), ("type", Status.interrupted.rawValue)]) + ">"
      + MarkupEscaping.xml(details) + "</error>"
  }

  /// `<failure>` or `<error>` with the first problem as message and every problem as text.
  private func problemElement(_ element: String, _ scenario: ScenarioReport) -> String {
    let steps = scenario.stepsThatDidNotPass
    let first = steps.lazy.compactMap { step in
      step.problems.first(where: { $0.severity == .error }).map { (step, $0) }
    }.first
    let message: String
    let type: String
    if let (step, problem) = first {
      message = "\(JUnitMessages.stepStatus(step)): \(problem.location(in: step)): \(problem.message)"
      type = problem.kind.rawValue
    } else {
      message = "\(scenario.location): \(JUnitMessages.noDetails(scenario.status))"
      type = scenario.status.rawValue
    }
    let details = steps.map { JUnitMessages.details($0, in: scenario) }.joined(separator: "\n\n")
    return "<\(element)" + MarkupEscaping.xmlAttributes([("message", message), ("type", type)]) + ">"
      + MarkupEscaping.xml(details.isEmpty ? message : details) + "</\(element)>"
  }
}
