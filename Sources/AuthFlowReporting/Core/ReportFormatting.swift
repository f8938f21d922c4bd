import AuthFlowCore
import AuthFlowResults
public import Foundation

extension Status {
  /// ✓ passed, ✗ failed, − skipped, ! error, ⊘ interrupted.
  var mark: String {
    switch self {
    case .passed: "✓"
    case .failed: "✗"
    case .skipped: "−"
    case .error: "!"
    case .interrupted: "⊘"
    }
  }
}

extension StepReport {
  /// `step 'reuse'`, `step 'reuse' (Reuse the old token)`, `cleanup step 'logout'`.
  var title: String {
    let prefix = phase == .cleanup ? "cleanup step" : "step"
    return name.isEmpty || name == id ? "\(prefix) '\(id)'" : "\(prefix) '\(id)' (\(name))"
  }

  /// True for steps a summary explains: failed or errored.
  var didNotPass: Bool { status == .failed || status == .error }
}

extension ScenarioReport {
  /// The steps that failed or errored, main steps first, then cleanup.
  var stepsThatDidNotPass: [StepReport] { steps.filter(\.didNotPass) }
}

extension Problem {
  /// Where to point at: the problem's own location, else the step's.
  func location(in step: StepReport) -> SourceLocation { location ?? step.location }

  /// `path`, `matcher`, `expected`, `actual` as labelled lines, for the fields that are present.
  var detailLines: [(label: String, text: String)] {
    [("path", path), ("matcher", matcher), ("expected", expected), ("actual", actual)]
      .compactMap { label, text in text.map { (label, $0) } }
  }
}

extension Duration {
  /// Seconds with three decimals (`1.250`), as JUnit's `time` wants them; locale-independent.
  var secondsText: String {
    let total = milliseconds
    let fraction = String(total % 1000)
    return "\(total / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}

extension RunReport {
  /// `5 scenarios: 1 passed, 1 failed, 1 error, 2 skipped`; `…, 1 interrupted, …` only when a
  /// scenario was.
  var countsText: String {
    let parts = Status.reportOrder.compactMap { status -> String? in
      let count = count(status)
      if status == .interrupted, count == 0 { return nil }
      return status == .error ? "\(count) error\(count == 1 ? "" : "s")" : "\(count) \(status.rawValue)"
    }
    let total = scenarios.count
    let warnings = warningCount
    let warned = warnings == 0 ? "" : "; \(warnings) warning\(warnings == 1 ? "" : "s")"
    return "\(total) scenario\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ") + warned
  }
}

/// Dates as reports write them, always in UTC and independent of the locale.
public enum Timestamp {
  /// `2025-01-02T03:04:05.678Z` (JSON).
  public static func iso8601(_ date: Date) -> String {
    let (text, milliseconds) = components(date)
    let fraction = String(milliseconds)
    return text + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
  }

  /// `2025-01-02T03:04:05`, UTC without a zone designator, as the JUnit schema wants it.
  static func junit(_ date: Date) -> String { components(date).text }

  /// Parses what ``iso8601(_:)`` writes.
  static func parse(_ text: String) -> Date? {
    try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
  }

  private static func components(_ date: Date) -> (text: String, milliseconds: Int) {
    let totalMilliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
    let seconds = totalMilliseconds.floorDiv(1000)
    let milliseconds = totalMilliseconds - seconds * 1000
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    func pad(_ number: Int?, _ width: Int = 2) -> String {
      let text = String(number ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let text =
      "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day))T\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))"
    return (text, milliseconds)
  }
}

extension Int {
  fileprivate func floorDiv(_ divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

extension ScenarioReport {
  /// The steps skipped because `step` failed or errored (directly or through other skipped
  /// steps), in report order.
  func skippedDependants(of step: StepReport) -> [StepReport] {
    // Only a failed or errored step blocks others: no scan of the steps for the rest.
    guard step.status == .failed || step.status == .error else { return [] }
    return steps.filter { $0.status == .skipped && $0.blockedBy == step.id && $0.phase == step.phase }
  }
}

extension StopCause {
  /// `by SIGTERM`, `by its --run-timeout of 20m`, `by its closed standard output`: what the
  /// reporters' *interrupted* banners say stopped the run.
  var byText: String {
    switch self {
    case .signal(let name): "by \(name)"
    case .runTimeout(let limit): "by its --run-timeout of \(limit)"
    case .closedOutput: "by its closed standard output"
    }
  }
}

/// Texts every reporter shares.
enum ReportMessages {
  /// `the run was stopped by SIGTERM before every scenario finished` (the cause left out when it
  /// is not known).
  static func stopped(_ report: RunReport) -> String {
    let cause = report.stopCause.map { " " + $0.byText } ?? ""
    return "the run was stopped\(cause) before every scenario finished"
  }

  /// The most step ids ``plannedSteps(of:)`` names before `… and N more`.
  static let plannedStepsShown = 12

  /// `none of its 4 steps ran: login, renew, reuse, cleanup logout`, for a scenario that never
  /// started; nil for one that did, or that lists no steps (its file changed, or a report left
  /// by a hard stop).
  static func plannedSteps(of scenario: ScenarioReport) -> String? {
    guard !scenario.started, !scenario.steps.isEmpty else { return nil }
    let ids = scenario.steps.map { $0.phase == .cleanup ? "cleanup \($0.id)" : $0.id }
    var listed = ids.prefix(plannedStepsShown).joined(separator: ", ")
    if ids.count > plannedStepsShown { listed += " and \(ids.count - plannedStepsShown) more" }
    let noun = ids.count == 1 ? "its step" : "its \(ids.count) steps"
    return ids.count == 1 ? "\(noun) did not run: \(listed)" : "none of \(noun) ran: \(listed)"
  }

  /// `skipped because 'login' failed: renew, reuse`; nil when nothing was skipped.
  static func skippedDependants(of step: StepReport, in scenario: ScenarioReport) -> String? {
    let skipped = scenario.skippedDependants(of: step)
    guard !skipped.isEmpty else { return nil }
    let verb = step.status == .error ? "hit an environment error" : "failed"
    return "skipped because '\(step.id)' \(verb): \(skipped.map(\.id).joined(separator: ", "))"
  }
}
