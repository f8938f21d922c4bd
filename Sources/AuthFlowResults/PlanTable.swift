import AuthFlowCore

/// A conformance test plan's results as one table, the way the OpenID Foundation's suite shows a
/// plan: a row per module with its result and, when it did not pass, the condition that decided it
/// and the clause. Derived from the scenarios alone — a scenario joins the table of plan NAME with
/// the tag `plan:NAME`, its module is the part of its name before `: `, and a matrix instance's
/// values (`[response_type: id_token]`) are the module's variant, as the suite runs one module
/// per variant — so a merged report (`report merge`) rebuilds the same tables from the same
/// scenarios.
public struct PlanTable: Sendable, Hashable {
  /// One module of the plan on one tenant.
  public struct Row: Sendable, Hashable {
    public var module: String
    /// The matrix values the module ran with (`response_type: id_token`), as the instance's name
    /// shows them; nil for a scenario without a matrix.
    public var variant: String?
    public var file: String
    public var tenant: String?
    public var result: Result
    /// The conformance suite's condition that decided the result (failed, warning), when named.
    public var condition: String?
    /// The clause it cites.
    public var clause: String?
    /// What happened, in one line: the problem, the skip reason, what to review.
    public var detail: String?
  }

  public var plan: String
  public var rows: [Row]

  /// The tag prefix naming a scenario's plan.
  public static let tagPrefix = "plan:"

  /// What a module came to, as the conformance suite says it: `review` is a module that passed
  /// its checks but waits for a person (a screenshot to look at), as the suite's REVIEW.
  public enum Result: String, Sendable, Hashable, CaseIterable {
    case passed, warning, review, skipped, failed, error, interrupted
  }

  /// How many rows have each result.
  public var counts: [Result: Int] {
    rows.reduce(into: [:]) { $0[$1.result, default: 0] += 1 }
  }

  /// Collects the tables scenario by scenario, keeping only the rows (a run's plans hold a few
  /// hundred modules at most; other scenarios leave nothing).
  public struct Builder: Sendable {
    private var tables: [String: [Row]] = [:]
    private var order: [String] = []

    public init() {}

    public mutating func add(_ scenario: ScenarioReport, tenant runTenant: String? = nil) {
      for tag in scenario.tags where tag.hasPrefix(PlanTable.tagPrefix) {
        let plan = String(tag.dropFirst(PlanTable.tagPrefix.count))
        guard !plan.isEmpty else { continue }
        if tables[plan] == nil { order.append(plan) }
        tables[plan, default: []].append(PlanTable.row(of: scenario, tenant: scenario.tenant ?? runTenant))
      }
    }

    public var tablesBuilt: [PlanTable] {
      order.map { PlanTable(plan: $0, rows: tables[$0] ?? []) }
    }
  }

  /// The tables of every plan the scenarios of `report` belong to, in the order first seen.
  public static func tables(of report: RunReport) -> [PlanTable] {
    var builder = Builder()
    for scenario in report.scenarios { builder.add(scenario, tenant: report.tenant) }
    return builder.tablesBuilt
  }

  public static func row(of scenario: ScenarioReport, tenant: String?) -> Row {
    let module = scenario.name.range(of: ": ").map { String(scenario.name[..<$0.lowerBound]) } ?? scenario.name
    // A comparison run labels each instance with its tenant (`RunReport.label`): not a variant.
    let label = scenario.tenant.map { " [tenant: \($0)]" } ?? ""
    let name =
      !label.isEmpty && scenario.name.hasSuffix(label) ? String(scenario.name.dropLast(label.count)) : scenario.name
    var row = Row(module: module, variant: variant(of: name), file: scenario.file, tenant: tenant, result: .passed)
    switch scenario.status {
    case .failed, .error, .interrupted:
      row.result = scenario.status == .failed ? .failed : scenario.status == .error ? .error : .interrupted
      let step = scenario.steps.first { $0.status == scenario.status } ?? scenario.firstProblem
      let problem = step?.problems.first { $0.severity == .error }
      (row.condition, row.clause) = attribution(problem: problem, step: step)
      row.detail = problem?.message ?? scenario.skipReason
    case .skipped:
      row.result = .skipped
      row.detail = scenario.skipReason
    case .passed:
      if let review = scenario.reviews.first {
        row.result = .review
        row.detail = review.message
      } else if let warning = scenario.warnings.first {
        row.result = .warning
        let step = scenario.steps.first { $0.problems.contains(warning) }
        (row.condition, row.clause) = attribution(problem: warning, step: step)
        row.detail = warning.message
      }
    }
    return row
  }

  /// The matrix values at the end of an instance's name (`Title [axis: value, axis: value]`,
  /// ``AuthFlowScenario/ScenarioInstance/name``): what follows the last ` [` of a name ending in
  /// `]`, after the module's `: `.
  public static func variant(of name: String) -> String? {
    guard name.hasSuffix("]"), let open = name.range(of: " [", options: .backwards),
      let colon = name.range(of: ": "), colon.upperBound <= open.lowerBound
    else { return nil }
    let inside = name[open.upperBound..<name.index(before: name.endIndex)]
    return inside.contains(": ") ? String(inside) : nil
  }

  /// The path of the problem an ID token that failed validation gives its step.
  public static let idTokenPath = "id_token"

  /// The condition and clause a problem names: its message's `(Condition, clause)` ending; else,
  /// for an ID token that failed validation in words of its own (Auth0.swift's: "Issuer (iss)
  /// claim mismatch…"), the suite's sequence of ID-token checks; else its step's name written
  /// `Condition, clause: what it checks`.
  static func attribution(problem: Problem?, step: StepReport?) -> (String?, String?) {
    if let message = problem?.message, message.hasSuffix(")"), let open = message.range(of: " (", options: .backwards) {
      let inside = message[open.upperBound..<message.index(before: message.endIndex)]
      if let parsed = split(inside) { return parsed }
    }
    if problem?.path == idTokenPath { return ("PerformStandardIdTokenChecks", "OpenID Connect Core §3.1.3.7") }
    if let name = step?.name, let colon = name.range(of: ": ") {
      if let parsed = split(name[..<colon.lowerBound]) { return parsed }
    }
    return (nil, nil)
  }

  /// `Condition, clause` when the first part is one word in CamelCase (a condition's class name).
  private static func split(_ text: Substring) -> (String?, String?)? {
    guard let comma = text.range(of: ", ") else { return nil }
    let condition = text[..<comma.lowerBound]
    guard !condition.isEmpty, condition.allSatisfy({ $0.isLetter || $0.isNumber }),
      condition.first?.isUppercase == true
    else { return nil }
    return (String(condition), String(text[comma.upperBound...]))
  }
}
