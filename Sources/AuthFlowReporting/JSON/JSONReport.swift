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
/// The objects are declared once (``ReportModel`` for the scenarios, `JSONReport+Model.swift`
/// for the run): this encoder, ``decode(_:name:)`` and ``JSONReportSchema`` walk those tables.
public enum JSONReport {
  /// The format name in every report.
  public static let format = "authflow-report"
  /// The structure's version; bumped on incompatible changes (a key added is one: the schema
  /// allows no other key).
  public static let version = ReportModel.version
  /// The versions ``decode(_:name:)`` reads: this one, version 3 (its shards without the whole
  /// selection), and version 2 (read as 3 without a stop cause, its scenarios started when they
  /// list steps).
  public static let readableVersions = [2, 3, 4, 5]

  /// The report as a JSON value tree. Secret-wrapped values stay wrapped; serialize with
  /// `jsonText(revealSecrets:)`. Pass an already redacted report.
  public static func value(of report: RunReport, secretsShown: Bool = false) -> Value {
    let coding = ReportCoding(form: .report, runTenant: report.tenant)
    return .object([
      "format": .string(format),
      "version": .int(version),
      "run": run.value(of: Decoded(report: report, secretsShown: secretsShown), coding),
      "scenarios": .array(report.scenarios.map { ReportModel.scenario.value(of: $0, coding) }),
      "test_plans": .array(PlanTable.tables(of: report).map { testPlan.value(of: $0, coding) }),
    ])
  }

  /// Writes the report's text — byte for byte ``text(_:revealSecrets:)`` of ``value(of:secretsShown:)``
  /// — one scenario at a time, so that the whole run is never one value or one string. Pass an
  /// already redacted report.
  static func write(
    _ report: RunReport, secretsShown: Bool, revealSecrets: Bool, into sink: inout ReportTextSink
  ) {
    // The members in key order, as the serializer sorts them: format, run, scenarios, version.
    sink.write("{\n  \"format\": " + Value.string(format).jsonText())
    let coding = ReportCoding(form: .report, runTenant: report.tenant)
    sink.write(
      ",\n  \"run\": "
        + run.value(of: Decoded(report: report, secretsShown: secretsShown), coding).jsonText(
          pretty: true, revealSecrets: revealSecrets, level: 1))
    // The plans' tables are gathered as the scenarios are written, and follow them (key order).
    var plans = PlanTable.Builder()
    if report.scenarios.isEmpty {
      sink.write(",\n  \"scenarios\": []")
    } else {
      sink.write(",\n  \"scenarios\": [")
      for (index, scenario) in report.scenarios.enumerated() {
        plans.add(scenario, tenant: report.tenant)
        let text = ReportModel.scenario.value(of: scenario, coding).jsonText(
          pretty: true, revealSecrets: revealSecrets, level: 2)
        sink.write((index == 0 ? "\n    " : ",\n    ") + text)
      }
      sink.write("\n  ]")
    }
    sink.write(
      ",\n  \"test_plans\": "
        + Value.array(plans.tablesBuilt.map { testPlan.value(of: $0, coding) }).jsonText(
          pretty: true, revealSecrets: revealSecrets, level: 1))
    sink.write(",\n  \"version\": " + Value.int(version).jsonText() + "\n}\n")
  }

  /// Pretty JSON text with sorted keys and a final newline.
  static func text(_ value: Value, revealSecrets: Bool) -> String {
    value.jsonText(pretty: true, revealSecrets: revealSecrets) + "\n"
  }
}
