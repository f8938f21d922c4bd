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
///
/// The document is written one test suite at a time (``render(into:)``): the scenarios of a file
/// come one after another in every report a run or a merge makes, so only one suite's test cases
/// are held at once. (Were a file's scenarios apart, its suite would still be one, read by index.)
struct JUnitDocument {
  var report: RunReport

  func render() -> String {
    ReportTextSink.collect { render(into: &$0) }
  }

  func render(into sink: inout ReportTextSink) {
    sink.write(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n")
    if report.interrupted { sink.write("<!-- \(JUnitMessages.interruptedComment(report)) -->\n") }
    var all = Totals()
    all.add(report.scenarios.summary)
    sink.write(
      "<testsuites" + MarkupEscaping.xmlAttributes(all.attributes(name: "authflow", time: report.duration)) + ">\n")
    if suitesAreContiguous() {
      var start = 0
      while start < report.scenarios.count {
        let first = report.scenarios[start]
        let suite = Suite(file: first.file, tenant: first.tenant)
        var end = start + 1
        var scenarios = [first]
        while end < report.scenarios.count {
          let next = report.scenarios[end]
          guard Suite(file: next.file, tenant: next.tenant) == suite else { break }
          scenarios.append(next)
          end += 1
        }
        writeSuite(suite, scenarios: scenarios, into: &sink)
        start = end
      }
    } else {
      for (suite, indices) in suitesByIndex() {
        writeSuite(suite, scenarios: indices.lazy.map { report.scenarios[$0] }, into: &sink)
      }
    }
    sink.write("</testsuites>\n")
  }

  /// One `<testsuite>`: its totals, then its test cases (gathered first: the totals come first).
  private func writeSuite(
    _ suite: Suite, scenarios: some Sequence<ScenarioReport>, into sink: inout ReportTextSink
  ) {
    var totals = Totals()
    var cases = ""
    for scenario in scenarios {
      totals.add(scenario)
      cases += testcase(scenario)
    }
    sink.write(
      "  <testsuite"
        + MarkupEscaping.xmlAttributes(
          totals.attributes(name: suite.name, time: totals.duration) + [
            ("timestamp", Timestamp.junit(report.startedAt))
          ])
    )
    sink.write(">\n")
    sink.write(properties(tenant: suite.tenant ?? report.tenant))
    sink.write(cases)
    sink.write("  </testsuite>\n")
  }

  /// A suite: a scenario file, or in a comparison run a file on one tenant.
  private struct Suite: Hashable {
    var file: String
    var tenant: String?

    /// `login.yaml`, or `login.yaml [tenant: mock]` in a comparison run.
    var name: String { tenant.map { "\(file) [tenant: \($0)]" } ?? file }
  }

  /// The counts of a suite (or of the run).
  private struct Totals {
    var tests = 0
    var failures = 0
    var errors = 0
    var skipped = 0
    var duration = Duration.zero

    mutating func add(_ scenario: ScenarioReport) {
      tests += 1
      duration += scenario.duration
      switch scenario.status {
      case .failed: failures += 1
      case .error, .interrupted: errors += 1
      case .skipped: skipped += 1
      case .passed: break
      }
    }

    mutating func add(_ summary: ScenarioReports.Summary) {
      tests += summary.counts.values.reduce(0, +)
      failures += summary.counts[.failed] ?? 0
      errors += (summary.counts[.error] ?? 0) + (summary.counts[.interrupted] ?? 0)
      skipped += summary.counts[.skipped] ?? 0
    }

    func attributes(name: String, time: Duration) -> [(String, String)] {
      [
        ("name", name), ("tests", String(tests)), ("failures", String(failures)), ("errors", String(errors)),
        ("skipped", String(skipped)), ("time", time.secondsText),
      ]
    }
  }

  /// Whether each suite's scenarios come one after another. Keeps a hash per suite, not the
  /// suites (a hash shared by two suites only sends the document the slower way).
  private func suitesAreContiguous() -> Bool {
    var current: Suite?
    var closed: Set<Int> = []
    for scenario in report.scenarios {
      let suite = Suite(file: scenario.file, tenant: scenario.tenant)
      guard suite != current else { continue }
      if let current { closed.insert(current.hashValue) }
      guard !closed.contains(suite.hashValue) else { return false }
      current = suite
    }
    return true
  }

  /// Scenarios grouped by suite (their positions), suites in the order they first appear.
  private func suitesByIndex() -> [(Suite, [Int])] {
    var order: [Suite] = []
    var groups: [Suite: [Int]] = [:]
    for (index, scenario) in report.scenarios.enumerated() {
      let suite = Suite(file: scenario.file, tenant: scenario.tenant)
      if groups[suite] == nil { order.append(suite) }
      groups[suite, default: []].append(index)
    }
    return order.map { ($0, groups[$0] ?? []) }
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
      message = "\(scenario.location): \(JUnitMessages.noDetails(scenario))"
      type = scenario.status.rawValue
    }
    let details = steps.map { JUnitMessages.details($0, in: scenario) }.joined(separator: "\n\n")
    return "<\(element)" + MarkupEscaping.xmlAttributes([("message", message), ("type", type)]) + ">"
      + MarkupEscaping.xml(details.isEmpty ? message : details) + "</\(element)>"
  }
}
