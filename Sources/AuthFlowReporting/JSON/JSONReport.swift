public import AuthFlowCore
public import AuthFlowResults
import Foundation

/// The JSON report: a stable, documented structure with sorted keys (diff-friendly), every key
/// always present (`null` when absent). It carries everything the other reporters show, so that
/// `authflow report merge` renders any of them from JSON reports (``decode(_:)``).
///
/// ```text
/// {
///   "format": "authflow-report", "version": 3,
///   "run": { "tenant", "started_at" (ISO-8601 UTC, ms), "duration_ms", "interrupted",
///            "stop_cause": { "kind" (signal|run_timeout|closed_output), "signal", "run_timeout",
///                            "description" } | null,
///            "shard": { "index", "count", "selected", "selection" } | null, "secrets_shown",
///            "counts": { "total", "passed", "failed", "error", "interrupted", "skipped", "warnings" } },
///   "scenarios": [ { "name", "file", "line", "column", "tags", "tenant", "status", "started",
///                    "skip_reason", "duration_ms", "warnings",
///                    "steps": [ { "id", "name", "action", "phase" (main|cleanup), "line", "column",
///                                 "status", "skip_reason", "blocked_by", "skipped_dependants", "needs",
///                                 "duration_ms", "attempts",
///                                 "problems": [ { "kind", "severity" (error|warning), "message",
///                                                 "location": { "file", "line", "column" } | null,
///                                                 "path", "matcher", "expected", "actual" } ],
///                                 "exchanges": [ "<request and response as --trace prints them>" ],
///                                 "result": <the step's result, secrets as "***"> | null } ] } ]
/// }
/// ```
///
/// `status` is `passed`, `failed`, `error`, `interrupted` or `skipped`; `kind` is a `Problem.Kind`
/// raw value. A problem of `severity` `warning` (a check written `severity: warning`) does not fail
/// its step: a passed step or scenario may have some; `warnings` counts them per scenario and, in
/// `counts`, per run. An `interrupted` scenario was cut short or never started because the run was stopped
/// (its `skip_reason` says which); an interrupted step was running or waiting when it was stopped.
/// `run.stop_cause` says what stopped an interrupted run. A scenario that never `started` (skipped
/// before its first step, or never reached by a stopped run) lists the steps it planned, none run:
/// each with the scenario's status and reason, its `needs`, no time and no attempt.
/// A scenario's `tenant` is the tenant it ran on; in a comparison run (`--tenant a,b`) `run.tenant`
/// is the names joined with commas and each scenario's name ends with `[tenant: NAME]`. A JWT in a
/// result is written as the scenario reads it: `{ "raw": "***", "header", "claims",
/// "signature_valid" }`. `needs` are the steps of the same phase the step waits for in the flow
/// graph. `secrets_shown` is true when the run had `--show-secrets` (the report then holds them in
/// clear, and `report merge` wants `--show-secrets` too). Version 2 added `needs`, `exchanges`,
/// `shard`, `secrets_shown` and the JWT objects; version 3 `run.stop_cause`, `started` and the
/// planned steps of scenarios that never started; version 4 the shard's `selected` and
/// `selection` (what the whole run selected, which `report merge` compares across shards);
/// version 5 `test_plans`, the table of each conformance test plan the scenarios belong to (a
/// `plan:NAME` tag; derived from the scenarios, so `report merge` rebuilds it).
/// ``JSONReportSchema`` declares the structure.
public enum JSONReport {
  /// The format name in every report.
  public static let format = "authflow-report"
  /// The structure's version; bumped on incompatible changes (a key added is one: the schema
  /// allows no other key).
  public static let version = 5
  /// The versions ``decode(_:name:)`` reads: this one, version 3 (its shards without the whole
  /// selection), and version 2 (read as 3 without a stop cause, its scenarios started when they
  /// list steps).
  public static let readableVersions = [2, 3, 4, 5]

  /// The report as a JSON value tree. Secret-wrapped values stay wrapped; serialize with
  /// `jsonText(revealSecrets:)`. Pass an already redacted report.
  public static func value(of report: RunReport, secretsShown: Bool = false) -> Value {
    .object([
      "format": .string(format),
      "version": .int(version),
      "run": runValue(of: report, secretsShown: secretsShown),
      "scenarios": .array(report.scenarios.map { value(of: $0, tenant: report.tenant) }),
      "test_plans": .array(PlanTable.tables(of: report).map(value(of:))),
    ])
  }

  /// A plan's table: `{ plan, counts, modules: [{ module, variant, file, tenant, result, condition, clause, detail }] }`.
  static func value(of table: PlanTable) -> Value {
    .object([
      "plan": .string(table.plan),
      "counts": .object(
        Dictionary(
          uniqueKeysWithValues: PlanTable.Result.allCases.map { ($0.rawValue, Value.int(table.counts[$0] ?? 0)) })),
      "modules": .array(
        table.rows.map { row in
          .object([
            "module": .string(row.module), "variant": row.variant.map(Value.string) ?? .null,
            "file": .string(row.file), "tenant": row.tenant.map(Value.string) ?? .null,
            "result": .string(row.result.rawValue), "condition": row.condition.map(Value.string) ?? .null,
            "clause": row.clause.map(Value.string) ?? .null, "detail": row.detail.map(Value.string) ?? .null,
          ])
        }),
    ])
  }

  /// The `run` member: the run, its shard and its counts.
  static func runValue(of report: RunReport, secretsShown: Bool) -> Value {
    .object([
      "tenant": .string(report.tenant),
      "started_at": .string(Timestamp.iso8601(report.startedAt)),
      "duration_ms": .int(report.duration.milliseconds),
      "interrupted": .bool(report.interrupted),
      "stop_cause": report.stopCause.map(value(of:)) ?? .null,
      "shard": report.shard.map(shardValue) ?? .null,
      "secrets_shown": .bool(secretsShown),
      "counts": counts(report.scenarios.summary),
    ])
  }

  /// `{ index, count, selected, selection }`: the shard, and what the whole run selected.
  static func shardValue(_ shard: Shard) -> Value {
    .object([
      "index": .int(shard.index), "count": .int(shard.count),
      "selected": shard.selection.map { .int($0.instances) } ?? .null,
      "selection": shard.selection.map { .string($0.digestText) } ?? .null,
    ])
  }

  /// `{ total, passed, failed, error, interrupted, skipped, warnings }`.
  static func counts(_ summary: ScenarioReports.Summary) -> Value {
    let total = summary.counts.values.reduce(0, +)
    var members: [String: Value] = ["total": .int(total), "warnings": .int(summary.warnings)]
    for status in Status.reportOrder { members[status.rawValue] = .int(summary.counts[status] ?? 0) }
    return .object(members)
  }

  /// Writes the report's text — byte for byte ``text(_:revealSecrets:)`` of ``value(of:secretsShown:)``
  /// — one scenario at a time, so that the whole run is never one value or one string. Pass an
  /// already redacted report.
  static func write(
    _ report: RunReport, secretsShown: Bool, revealSecrets: Bool, into sink: inout ReportTextSink
  ) {
    // The members in key order, as the serializer sorts them: format, run, scenarios, version.
    sink.write("{\n  \"format\": " + Value.string(format).jsonText())
    sink.write(
      ",\n  \"run\": "
        + runValue(of: report, secretsShown: secretsShown).jsonText(
          pretty: true, revealSecrets: revealSecrets, level: 1))
    // The plans' tables are gathered as the scenarios are written, and follow them (key order).
    var plans = PlanTable.Builder()
    if report.scenarios.isEmpty {
      sink.write(",\n  \"scenarios\": []")
    } else {
      sink.write(",\n  \"scenarios\": [")
      for (index, scenario) in report.scenarios.enumerated() {
        plans.add(scenario, tenant: report.tenant)
        let text = value(of: scenario, tenant: report.tenant).jsonText(
          pretty: true, revealSecrets: revealSecrets, level: 2)
        sink.write((index == 0 ? "\n    " : ",\n    ") + text)
      }
      sink.write("\n  ]")
    }
    sink.write(
      ",\n  \"test_plans\": "
        + Value.array(plans.tablesBuilt.map(value(of:))).jsonText(pretty: true, revealSecrets: revealSecrets, level: 1))
    sink.write(",\n  \"version\": " + Value.int(version).jsonText() + "\n}\n")
  }

  static func value(of cause: StopCause) -> Value {
    var signal: String?
    var limit: String?
    switch cause {
    case .signal(let name): signal = name
    case .runTimeout(let written): limit = written
    case .closedOutput: break
    }
    return .object([
      "kind": .string(cause.kind), "signal": optional(signal), "run_timeout": optional(limit),
      "description": .string(cause.description),
    ])
  }

  static func value(of scenario: ScenarioReport, tenant: String) -> Value {
    let blocked = scenario.skippedDependantsByBlocker()
    return .object([
      "name": .string(scenario.name),
      "tenant": .string(scenario.tenant ?? tenant),
      "file": .string(scenario.file),
      "line": .int(scenario.location.line),
      "column": .int(scenario.location.column),
      "tags": .array(scenario.tags.map(Value.string)),
      "status": .string(scenario.status.rawValue),
      "started": .bool(scenario.started),
      "skip_reason": optional(scenario.skipReason),
      "duration_ms": .int(scenario.duration.milliseconds),
      "warnings": .int(scenario.warnings.count),
      "steps": .array(
        scenario.steps.map { step in
          let dependants =
            step.status == .failed || step.status == .error ? blocked["\(step.phase.rawValue)/\(step.id)"] : nil
          return value(of: step, skippedDependants: dependants ?? [])
        }),
    ])
  }

  static func value(of step: StepReport, skippedDependants: [String]) -> Value {
    .object([
      "blocked_by": optional(step.blockedBy),
      "skipped_dependants": .array(skippedDependants.map(Value.string)),
      "needs": .array(step.needs.map(Value.string)),
      "exchanges": .array(step.exchanges.map(Value.string)),
      "id": .string(step.id),
      "name": .string(step.name),
      "action": .string(step.action),
      "phase": .string(step.phase.rawValue),
      "line": .int(step.location.line),
      "column": .int(step.location.column),
      "status": .string(step.status.rawValue),
      "skip_reason": optional(step.skipReason),
      "duration_ms": .int(step.duration.milliseconds),
      "attempts": .int(step.attempts),
      "problems": .array(step.problems.map(value(of:))),
      "result": step.result?.expandingTokens() ?? .null,
    ])
  }

  static func value(of problem: Problem) -> Value {
    .object([
      "kind": .string(problem.kind.rawValue),
      "severity": .string(problem.severity.rawValue),
      "message": .string(problem.message),
      "location": problem.location.map { location in
        .object(["file": .string(location.file), "line": .int(location.line), "column": .int(location.column)])
      } ?? .null,
      "path": optional(problem.path),
      "matcher": optional(problem.matcher),
      "expected": optional(problem.expected),
      "actual": optional(problem.actual),
    ])
  }

  private static func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }

  /// Pretty JSON text with sorted keys and a final newline.
  static func text(_ value: Value, revealSecrets: Bool) -> String {
    value.jsonText(pretty: true, revealSecrets: revealSecrets) + "\n"
  }
}
