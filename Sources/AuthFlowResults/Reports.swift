public import AuthFlowCore
public import AuthFlowScenario
public import Foundation

/// Everything a run produced, in the order the scenarios were given. Reporters read only this.
///
/// Its scenarios may be in memory or read back one at a time from the run's spool
/// (``ScenarioReports``): reporters go through them in order, without copying them.
public struct RunReport: Sendable {
  /// The tenant's name; for a comparison run, the names joined with commas (`mock,conformance`).
  public var tenant: String
  public var startedAt: Date
  public var duration: Duration
  public var scenarios: ScenarioReports
  /// True when the run was stopped (a signal, a closed standard output) before every scenario
  /// finished.
  public var interrupted: Bool
  /// The shard this run was (`--shard K/N`), nil for a whole run: `authflow report merge` checks
  /// that the shards of a run are all there, once each.
  public var shard: Shard?
  /// What stopped the run (a signal, `--run-timeout`, a closed standard output), when it was
  /// stopped and the cause is known.
  public var stopCause: StopCause?

  public init(
    tenant: String, startedAt: Date, duration: Duration, scenarios: [ScenarioReport], interrupted: Bool,
    shard: Shard? = nil, stopCause: StopCause? = nil
  ) {
    self.init(
      tenant: tenant, startedAt: startedAt, duration: duration, scenarios: ScenarioReports(scenarios),
      interrupted: interrupted, shard: shard, stopCause: stopCause)
  }

  public init(
    tenant: String, startedAt: Date, duration: Duration, scenarios: ScenarioReports, interrupted: Bool,
    shard: Shard? = nil, stopCause: StopCause? = nil
  ) {
    self.shard = shard
    self.stopCause = stopCause
    self.tenant = tenant
    self.startedAt = startedAt
    self.duration = duration
    self.scenarios = scenarios
    self.interrupted = interrupted
  }

  public func count(_ status: Status) -> Int { scenarios.summary.counts[status] ?? 0 }

  /// The number of warnings (checks written `severity: warning` that did not hold) in the run.
  public var warningCount: Int { scenarios.summary.warnings }

  /// The process exit code of docs/design.md §1: 1 when any scenario failed, else 3 when any hit an
  /// environment error, else 1 when any was interrupted (it never held), else 0. (An assertion
  /// failure is the more actionable signal: rerunning would not make it go away.) The CLI
  /// replaces it with the signal's code (130, 143, 129, 141) when a signal stopped the run.
  public var exitCode: AuthFlowExitCode {
    let counts = scenarios.summary.counts
    if counts[.failed, default: 0] > 0 { return .failure }
    if counts[.error, default: 0] > 0 { return .environment }
    if interrupted || counts[.interrupted, default: 0] > 0 { return .failure }
    return .success
  }
}

/// One scenario instance (a matrix combination is its own instance).
public struct ScenarioReport: Sendable {
  /// The instance name, e.g. `Login works [connection: email]`.
  public var name: String
  public var file: String
  public var location: SourceLocation
  public var tags: [String]
  public var status: Status
  /// Why the scenario was skipped (missing capability; tag filters never reach here) or
  /// interrupted (while running, or before it started).
  public var skipReason: String?
  public var duration: Duration
  /// The steps as they ended; for a scenario that never started (``started`` false), the steps
  /// it planned — id, action, phase, `needs` — each with the scenario's status and reason, so
  /// that its flow can still be drawn (none of them ran).
  public var steps: [StepReport]
  /// The tenant this scenario ran on when the run compared several (`--tenant a,b`); nil when the
  /// run had one tenant (``RunReport/tenant``).
  public var tenant: String?
  /// False when the scenario never started: skipped before its first step (a capability the
  /// tenant lacks, another tenant, a client it does not define, no chromium), stopped before its
  /// turn, or its file changed after validation.
  public var started: Bool

  public init(
    name: String, file: String, location: SourceLocation, tags: [String], status: Status, skipReason: String? = nil,
    duration: Duration, steps: [StepReport], tenant: String? = nil, started: Bool = true
  ) {
    self.started = started
    self.tenant = tenant
    self.name = name
    self.file = file
    self.location = location
    self.tags = tags
    self.status = status
    self.skipReason = skipReason
    self.duration = duration
    self.steps = steps
  }

  /// The report without its steps' results and HTTP exchanges (statuses, problems, timings and
  /// the graph stay).
  public func droppingStepResults() -> ScenarioReport {
    var copy = self
    for index in copy.steps.indices {
      copy.steps[index].result = nil
      copy.steps[index].exchanges = []
    }
    return copy
  }

  /// The warnings of its steps: checks written `severity: warning` that did not hold, and what
  /// they ask a person to review.
  public var warnings: [Problem] {
    steps.flatMap { $0.problems.filter { $0.severity == .warning } }
  }

  /// What its steps ask a person to review (`review`).
  public var reviews: [Problem] {
    steps.flatMap { $0.problems.filter { $0.kind == .review } }
  }

  /// The first step that failed or errored, for summaries.
  public var firstProblem: StepReport? {
    steps.first { $0.status == .failed || $0.status == .error }
  }

  /// The report of a scenario that never started: `status` with `reason`, and the steps `graph`
  /// plans (main steps, then cleanup, in file order), none run — each with the scenario's status
  /// and reason, its `needs`, no time, no attempt.
  public static func notStarted(
    name: String, file: String, location: SourceLocation, tags: [String], status: Status, reason: String,
    graph: FlowGraph?
  ) -> ScenarioReport {
    let steps =
      graph?.nodes.map { node in
        StepReport(
          id: node.id, name: node.step.displayName, action: node.step.action.name.value,
          phase: node.isCleanup ? .cleanup : .main, location: node.step.location, status: status,
          skipReason: reason, needs: node.dependencies)
      } ?? []
    return ScenarioReport(
      name: name, file: file, location: location, tags: tags, status: status, skipReason: reason,
      duration: .zero, steps: steps, started: false)
  }
}

/// Which part of the scenario a step belongs to.
public enum StepPhase: String, Sendable, Codable, CaseIterable {
  case main
  case cleanup
}

/// One step's outcome.
public struct StepReport: Sendable {
  public var id: String
  public var name: String
  public var action: String
  public var phase: StepPhase
  public var location: SourceLocation
  public var status: Status
  public var skipReason: String?
  public var duration: Duration
  public var attempts: Int
  /// What went wrong: failed expectations, an unexpected protocol error, a timeout, an
  /// environment error. Messages are already scrubbed of secrets unless `--show-secrets`.
  public var problems: [Problem]
  /// The step's result as the scenario sees it (`steps.<id>`); secrets stay wrapped, and
  /// reporters print it redacted.
  public var result: Value?
  /// For a step skipped because a step it needs (directly or through other skipped steps) failed
  /// or hit an environment error: the id of that step, so reporters can list its skipped
  /// dependants.
  public var blockedBy: String?
  /// The steps of the same phase this one waits for in the flow graph (`needs`, or the step
  /// before it): with the steps' ids, the graph the HTML report draws, also from a JSON report.
  public var needs: [String]
  /// The HTTP exchanges the step made, as `--trace` prints them (sensitive headers and fields
  /// masked as there; reporters scrub them like every text), at most
  /// ``StepExchangeLog/maximumExchanges``. Empty unless a reporter shows them
  /// (``RunServices/recordsExchanges``).
  public var exchanges: [String]

  public init(
    id: String, name: String, action: String, phase: StepPhase, location: SourceLocation, status: Status,
    skipReason: String? = nil, duration: Duration = .zero, attempts: Int = 0, problems: [Problem] = [],
    result: Value? = nil, blockedBy: String? = nil, needs: [String] = [], exchanges: [String] = []
  ) {
    self.needs = needs
    self.exchanges = exchanges
    self.blockedBy = blockedBy
    self.id = id
    self.name = name
    self.action = action
    self.phase = phase
    self.location = location
    self.status = status
    self.skipReason = skipReason
    self.duration = duration
    self.attempts = attempts
    self.problems = problems
    self.result = result
  }
}

/// A failed expectation or another reason a step did not pass, with where in the YAML it is.
public struct Problem: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An `expect` matcher did not hold.
    case expectation
    /// The action returned a protocol error the scenario did not expect (no `expect` on `error`).
    case unexpectedError
    /// An expression failed to evaluate (a missing value used where one is required, a type error).
    case evaluation
    /// The step (or scenario) ran past its `timeout`.
    case timeout
    /// `retry.until` never held.
    case retryExhausted
    /// The tenant could not be reached or misbehaved.
    case environment
    /// The action itself could not do what it was asked (a missing form field, a bad parameter value).
    case action
    /// A person must confirm what no check can (`review`): reported with severity `warning`, so the
    /// verdict is not changed, and marked for review by every reporter.
    case review
  }

  public var kind: Kind
  public var message: String
  /// Where the failing expectation (or parameter, or step) is in the YAML.
  public var location: SourceLocation?
  /// For expectations: the path, the matcher, what was expected, and what was found (display text,
  /// already redacted).
  public var path: String?
  public var matcher: String?
  public var expected: String?
  public var actual: String?
  /// `error` fails the step; `warning` (a check written `severity: warning`) is reported, and the
  /// step passes.
  public var severity: CheckSeverity

  public init(
    _ kind: Kind, _ message: String, at location: SourceLocation?, path: String? = nil, matcher: String? = nil,
    expected: String? = nil, actual: String? = nil, severity: CheckSeverity = .error
  ) {
    self.severity = severity
    self.kind = kind
    self.message = message
    self.location = location
    self.path = path
    self.matcher = matcher
    self.expected = expected
    self.actual = actual
  }
}

extension RunReport {
  /// The stop that decides the run's exit code: `cause` when it cut the run short (this report is
  /// interrupted), nil when it came once every scenario had finished — while the tenants stopped
  /// or the reports were written — and so stopped nothing: the reports are the whole run's, and
  /// the exit code is their verdict, not 124 or 130 beside reports that say the run was complete
  /// (found by fuzz/run: a `--run-timeout` that passed while a large report was written).
  public func stop(thatCut cause: StopCause?) -> StopCause? {
    interrupted ? cause : nil
  }
}
