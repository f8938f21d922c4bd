import AuthFlowCore

/// The verdicts of one selection run on several tenants (`--tenant a,b`): a table of scenario ×
/// tenant, and for every scenario whose verdicts differ, the first step whose status differs (or
/// the reason a tenant skipped it).
public struct TenantComparison: Sendable {
  /// One scenario instance's verdicts.
  public struct Row: Sendable {
    public var name: String
    public var file: String
    /// One per tenant, in the order of ``TenantComparison/tenants``.
    public var verdicts: [ScenarioReport]
    /// Why the verdicts differ; nil when they agree.
    public var difference: String?
  }

  public var tenants: [String]
  /// The runs compared, each read when the comparison is rendered: a long run's reports are not
  /// all held at once.
  private let runs: [RunReport]

  /// Compares runs of the same instances (as ``TenantRuns`` gives them: same instances, same order).
  public init(runs: [RunReport]) {
    self.runs = runs
    tenants = runs.map(\.tenant)
  }

  /// How many scenario instances are compared.
  public var rowCount: Int { runs.map(\.scenarios.count).min() ?? 0 }

  /// The row of the instance at `index`.
  public func row(_ index: Int) -> Row {
    let verdicts = runs.map { $0.scenarios[index] }
    let first = verdicts[0]
    return Row(
      name: first.name, file: first.file, verdicts: verdicts, difference: Self.difference(verdicts, tenants: tenants))
  }

  /// Every row (read into memory: for small runs and tests; ``render(_:)`` reads one at a time).
  public var rows: [Row] { (0..<rowCount).map(row) }

  /// The rows whose verdicts differ.
  public var differing: [Row] { rows.filter { $0.difference != nil } }

  /// `pass`, `pass, 2 warnings`, `fail`, `error`, `interrupted`, `skip (reason)`.
  public static func verdict(_ report: ScenarioReport) -> String {
    switch report.status {
    case .passed:
      let warnings = report.warnings.count
      return warnings == 0 ? "pass" : "pass, \(warnings) warning\(warnings == 1 ? "" : "s")"
    case .failed: return "fail"
    case .error: return "error"
    case .interrupted: return "interrupted"
    case .skipped: return report.skipReason.map { "skip (\($0))" } ?? "skip"
    }
  }

  /// The first difference between the verdicts, in the words of the report.
  static func difference(_ verdicts: [ScenarioReport], tenants: [String]) -> String? {
    guard let first = verdicts.first,
      verdicts.contains(where: { $0.status != first.status || $0.skipReason != first.skipReason })
    else { return nil }
    // A scenario-level skip (a missing capability) explains itself.
    if let skipped = verdicts.indices.first(where: { verdicts[$0].status == .skipped && !verdicts[$0].started }) {
      return ComparisonMessages.skippedOn(tenants[skipped], reason: verdicts[skipped].skipReason)
    }
    var order: [String] = []
    for report in verdicts {
      for step in report.steps where !order.contains(step.id) { order.append(step.id) }
    }
    for id in order {
      let steps = verdicts.map { report in report.steps.first { $0.id == id } }
      let statuses = steps.map { $0?.status }
      guard Set(statuses).count > 1 else { continue }
      let parts = zip(tenants, steps).map { tenant, step in
        ComparisonMessages.stepVerdict(tenant: tenant, step: step)
      }
      return ComparisonMessages.firstDifferingStep(id, parts: parts)
    }
    return ComparisonMessages.scenarioVerdicts(zip(tenants, verdicts).map { ($0, verdict($1)) })
  }

  /// The table and the differences, as plain text (the caller scrubs secrets and adds color).
  public func render() -> String {
    var text = ""
    render { text += $0 + "\n" }
    return text
  }

  /// The table and the differences, one line at a time (without its newline). The runs are read
  /// three times — the column widths, the table, the differences — one row at a time.
  public func render(_ line: (String) -> Void) {
    let header = ["scenario"] + tenants
    var widths = header.map(\.count)
    for index in 0..<rowCount {
      let cells = cells(of: runs.map { $0.scenarios[index] })
      for (column, cell) in cells.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func text(_ cells: [String]) -> String {
      zip(cells, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }
        .joined(separator: "  ").trimmingTrailingSpaces
    }
    line(ComparisonMessages.title(tenants))
    line("")
    line(text(header))
    line(text(widths.map { String(repeating: "-", count: $0) }))
    var differing = 0
    for index in 0..<rowCount {
      let verdicts = runs.map { $0.scenarios[index] }
      line(text(cells(of: verdicts)))
      if Self.difference(verdicts, tenants: tenants) != nil { differing += 1 }
    }
    line("")
    guard differing > 0 else {
      line(ComparisonMessages.allAgree(rowCount))
      return
    }
    line(ComparisonMessages.differ(differing))
    for index in 0..<rowCount {
      let row = row(index)
      if let difference = row.difference { line("  \(row.name) (\(row.file)): \(difference)") }
    }
  }

  private func cells(of verdicts: [ScenarioReport]) -> [String] {
    [verdicts[0].name] + verdicts.map(Self.verdict)
  }
}

/// The texts of a tenant comparison.
enum ComparisonMessages {
  static func title(_ tenants: [String]) -> String {
    "Verdicts by tenant (\(tenants.joined(separator: ", ")))"
  }

  static func allAgree(_ count: Int) -> String {
    count == 1
      ? "The scenario has the same verdict on every tenant."
      : "All \(count) scenarios have the same verdict on every tenant."
  }

  static func differ(_ count: Int) -> String {
    "\(Plural.count(count, "scenario")) \(count == 1 ? "differs" : "differ"):"
  }

  static func skippedOn(_ tenant: String, reason: String?) -> String {
    "skipped on \(tenant)" + (reason.map { ": \($0)" } ?? "")
  }

  static func stepVerdict(tenant: String, step: StepReport?) -> String {
    guard let step else { return "not run on \(tenant)" }
    var text = "\(step.status.rawValue) on \(tenant)"
    if let problem = step.problems.first(where: { $0.severity == .error }) ?? step.problems.first {
      text += " (\(problem.message))"
    } else if let reason = step.skipReason {
      text += " (\(reason))"
    }
    return text
  }

  static func firstDifferingStep(_ id: String, parts: [String]) -> String {
    "step '\(id)' " + parts.joined(separator: ", ")
  }

  static func scenarioVerdicts(_ pairs: [(String, String)]) -> String {
    pairs.map { "\($1) on \($0)" }.joined(separator: ", ")
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
