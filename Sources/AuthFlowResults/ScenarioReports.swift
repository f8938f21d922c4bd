/// The scenarios of a run, in report order: held in memory, or produced one at a time when they
/// are read — from a ``ScenarioSpool`` on disk, or from the plan for the scenarios a stopped run
/// never started.
///
/// A long run keeps no report in memory: the runner spools each finished scenario, and reporters
/// read this collection the way they read an array, each scenario decoded when it is reached and
/// dropped after. Transforms (``mapping(_:)``: redaction, tenant labels) are then applied to each
/// element as it is read, not to a copy of the whole run.
///
/// Counts by status and the number of warnings are known without reading every scenario when the
/// collection came from a spool (``Summary``), so reporters that print totals first do not decode
/// the run once per total.
///
/// Mutating an element (`reports[0].status = …`) turns a produced collection into an array first:
/// tests do it; a run's own code never does.
public struct ScenarioReports: RandomAccessCollection, MutableCollection, Sendable, ExpressibleByArrayLiteral {
  /// Totals that every transform keeps (transforms change texts, never statuses or problems).
  public struct Summary: Sendable, Hashable {
    /// Scenarios by status.
    public var counts: [Status: Int]
    /// Warnings (checks written `severity: warning` that did not hold) of every scenario.
    public var warnings: Int

    public init(counts: [Status: Int] = [:], warnings: Int = 0) {
      self.counts = counts
      self.warnings = warnings
    }

    /// The totals of both.
    public static func + (lhs: Summary, rhs: Summary) -> Summary {
      Summary(counts: lhs.counts.merging(rhs.counts, uniquingKeysWith: +), warnings: lhs.warnings + rhs.warnings)
    }
  }

  private enum Storage: Sendable {
    case array([ScenarioReport])
    case produced(count: Int, summary: Summary?, element: @Sendable (Int) -> ScenarioReport)
  }

  private var storage: Storage

  /// No reports.
  public init() {
    storage = .array([])
  }

  /// The reports in memory.
  public init(_ reports: [ScenarioReport]) {
    storage = .array(reports)
  }

  public init(arrayLiteral elements: ScenarioReport...) {
    storage = .array(elements)
  }

  /// `count` reports made when read: `element(i)` is the report at position `i`. `summary`, when
  /// known, gives the totals without reading them.
  public init(count: Int, summary: Summary? = nil, element: @escaping @Sendable (Int) -> ScenarioReport) {
    storage = .produced(count: count, summary: summary, element: element)
  }

  public var startIndex: Int { 0 }

  public var endIndex: Int {
    switch storage {
    case .array(let reports): reports.count
    case .produced(let count, _, _): count
    }
  }

  public subscript(position: Int) -> ScenarioReport {
    get {
      switch storage {
      case .array(let reports): return reports[position]
      case .produced(let count, _, let element):
        precondition(position >= 0 && position < count, "scenario report index out of range")
        return element(position)
      }
    }
    set {
      var reports = Array(self)
      storage = .array([])
      reports[position] = newValue
      storage = .array(reports)
    }
  }

  /// True when the reports are produced when read (a spool, a plan) rather than held.
  public var isProduced: Bool {
    if case .produced = storage { return true }
    return false
  }

  /// The totals: from the producer when it knows them, else counted.
  public var summary: Summary {
    if case .produced(_, let summary?, _) = storage { return summary }
    var summary = Summary()
    for report in self {
      summary.counts[report.status, default: 0] += 1
      summary.warnings += report.warnings.count
    }
    return summary
  }

  /// The reports with `transform` applied to each: at once for reports in memory, as each is
  /// read for produced ones. `transform` must keep each report's status and problems (the
  /// ``summary`` is carried over).
  public func mapping(_ transform: @escaping @Sendable (ScenarioReport) -> ScenarioReport) -> ScenarioReports {
    switch storage {
    case .array(let reports):
      return ScenarioReports(reports.map(transform))
    case .produced(let count, let summary, let element):
      return ScenarioReports(count: count, summary: summary) { transform(element($0)) }
    }
  }

  /// `lists` one after the other; produced when any of them is.
  public static func concatenating(_ lists: [ScenarioReports]) -> ScenarioReports {
    guard lists.contains(where: \.isProduced) else { return ScenarioReports(lists.flatMap { Array($0) }) }
    let starts = lists.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
    let summaries = lists.map { list -> Summary? in
      if case .produced(_, let summary, _) = list.storage { return summary }
      return list.summary
    }
    let summary = summaries.contains { $0 == nil } ? nil : summaries.reduce(Summary()) { $0 + ($1 ?? Summary()) }
    return ScenarioReports(count: starts[starts.count - 1], summary: summary) { position in
      var list = 0
      while starts[list + 1] <= position { list += 1 }
      return lists[list][position - starts[list]]
    }
  }
}
