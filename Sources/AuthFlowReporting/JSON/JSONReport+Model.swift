public import AuthFlowCore
public import AuthFlowResults
import Foundation

/// The JSON report's own objects — the run, its stop cause, shard and counts, and the conformance
/// plans' tables — declared once as the scenarios are (``ReportModel``): the encoder, the decoder
/// (`report merge`) and the JSON Schema are these tables walked.
extension JSONReport {
  /// The `run` member, read into the run's report and whether it showed secrets.
  static let run = ReportObject<Decoded>(
    blank: Decoded(
      report: RunReport(
        tenant: "", startedAt: Date(timeIntervalSince1970: 0), duration: .zero, scenarios: [], interrupted: false),
      secretsShown: false),
    fields: [
      .field("tenant", \.report.tenant, .text, "The tenant; several joined by commas."),
      .field("started_at", \.report.startedAt, .timestamp, "When the run started, UTC, to the millisecond."),
      .field("duration_ms", \.report.duration, .duration),
      .field(
        "interrupted", \.report.interrupted, .boolean, "True when the run was stopped before every scenario finished."),
      .field(
        "stop_cause", \.report.stopCause, .stopCause,
        "What stopped an interrupted run; null when it was not stopped, or the cause is not known (a report of version 2 merged).",
        since: 3),
      .field("shard", \.report.shard, .optional(shard), "The run's --shard K/N; null for a whole run."),
      .field("secrets_shown", \.secretsShown, .boolean, "True when the run had --show-secrets."),
      .derived("counts", counts.schema) { run, _ in counts.value(of: run.report.scenarios.summary, .init(form: .report))
      },
    ])

  /// `run.shard`: the shard, and what the whole run selected.
  static let shard = ReportObject<Shard>(
    blank: Shard(index: 1, count: 1),
    fields: [
      .field("index", \.index, .positive),
      .field("count", \.count, .positive),
      ReportField(
        keys: [
          ReportKey(
            "selected", ["oneOf": [["type": "null"], ReportCodec<Int>.count.schema]],
            "How many scenario instances the whole run selected, every shard's together (null: not known)."),
          ReportKey(
            "selection", ["oneOf": [["type": "null"], ["type": "string", "pattern": "^[0-9a-f]{16}$"]]],
            "A digest of the whole selection's instances (files and names), equal in every shard of one run (null: not known)."
          ),
        ],
        encode: { shard, _, members in
          members["selected"] = shard.selection.map { .int($0.instances) } ?? .null
          members["selection"] = shard.selection.map { .string($0.digestText) } ?? .null
        },
        decode: { shard, reader, coding throws(ReportDecodingError) in
          // Version 4 added both.
          guard coding.version >= 4 else { return }
          shard.selection = try selection(reader)
        }),
    ],
    completing: { shard, _ throws(ReportDecodingError) in
      guard shard.index >= 1, shard.index <= shard.count else {
        throw ReportDecodingError(expected: "{ index, count } with 1 ≤ index ≤ count")
      }
    })

  /// A shard's `selected` and `selection`, nil when both are null.
  private static func selection(_ shard: ReportReader) throws(ReportDecodingError) -> Shard.Selection? {
    let selected = try shard.member("selected")
    let selection = try shard.member("selection")
    guard selected.value != nil, selection.value != nil else {
      throw ReportDecodingError(
        expected: "a value (the key is missing)", at: [selected.value == nil ? "selected" : "selection"])
    }
    if selected.isNull && selection.isNull { return nil }
    guard !selected.isNull, !selection.isNull else {
      throw ReportDecodingError(expected: "selected and selection both given, or both null")
    }
    let text: String
    do throws(ReportDecodingError) { text = try selection.string() } catch { throw error.below("selection") }
    guard text.utf8.count == 16, text.utf8.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }),
      let digest = UInt64(text, radix: 16)
    else { throw ReportDecodingError(expected: "16 hex digits", at: ["selection"]) }
    let instances: Int
    do throws(ReportDecodingError) { instances = try selected.int() } catch { throw error.below("selected") }
    guard selectedInstances.contains(instances) else {
      throw ReportDecodingError(
        expected: "a count of scenario instances up to \(selectedInstances.upperBound)", at: ["selected"])
    }
    return Shard.Selection(instances: instances, digest: digest)
  }

  /// `run.counts`: how many scenarios had each status, and the run's warnings.
  static let counts = ReportObject<ScenarioReports.Summary>(
    blank: nil,
    fields: [
      .derived("total", ReportCodec<Int>.count.schema) { summary, _ in .int(summary.counts.values.reduce(0, +)) }
    ]
      + Status.reportOrder.map { status in
        .derived(status.rawValue, ReportCodec<Int>.count.schema) { summary, _ in .int(summary.counts[status] ?? 0) }
      }
      + [
        .derived(
          "warnings", ReportCodec<Int>.count.schema,
          "Checks written severity: warning that did not hold, in the whole run."
        ) { summary, _ in .int(summary.warnings) }
      ])

  /// `test_plans[]`: a conformance plan's table, derived from the scenarios (`report merge`
  /// rebuilds it, so it is not read back).
  static let testPlan = ReportObject<PlanTable>(
    definition: "test_plan", blank: nil,
    fields: [
      .derived("plan", ["type": "string"], "The plan's name (the tag plan:NAME).") { table, _ in .string(table.plan) },
      .derived("counts", planCounts.schema, "How many modules had each result.") { table, _ in
        planCounts.value(of: table.counts, .init(form: .report))
      },
      .derived("modules", ["type": "array", "items": planModule.codec.schema]) { table, coding in
        .array(table.rows.map { planModule.value(of: $0, coding) })
      },
    ])

  static let planCounts = ReportObject<[PlanTable.Result: Int]>(
    blank: nil,
    fields: PlanTable.Result.allCases.map { result in
      .derived(result.rawValue, ReportCodec<Int>.count.schema) { counts, _ in .int(counts[result] ?? 0) }
    })

  static let planModule = ReportObject<PlanTable.Row>(
    definition: "plan_module", blank: nil,
    fields: [
      .derived("module", ["type": "string"], "The module: the scenario's name before ': '.") { row, _ in
        .string(row.module)
      },
      .derived(
        "variant", nullableString,
        "The matrix values the module ran with (response_type: id_token), from the instance's name; null without a matrix."
      ) { row, _ in row.variant.map(Value.string) ?? .null },
      .derived("file", ["type": "string"]) { row, _ in .string(row.file) },
      .derived("tenant", nullableString) { row, _ in row.tenant.map(Value.string) ?? .null },
      .derived("result", ["enum": .array(PlanTable.Result.allCases.map { Value.string($0.rawValue) })]) { row, _ in
        .string(row.result.rawValue)
      },
      .derived("condition", nullableString, "The conformance suite's condition that decided a failure or warning.") {
        row, _ in row.condition.map(Value.string) ?? .null
      },
      .derived("clause", nullableString, "The clause that condition cites.") { row, _ in
        row.clause.map(Value.string) ?? .null
      },
      .derived("detail", nullableString, "The problem, the skip reason, or what to review.") { row, _ in
        row.detail.map(Value.string) ?? .null
      },
    ])

  private static let nullableString: Value = ["oneOf": [["type": "null"], ["type": "string"]]]
}

extension ReportCodec where T == Int {
  /// A whole number ≥ 1 (a shard's index and count).
  static var positive: ReportCodec {
    ReportCodec(
      schema: ["type": "integer", "minimum": 1], encode: { number, _ in .int(number) },
      decode: { reader, _ throws(ReportDecodingError) in
        let number = try reader.int()
        guard number >= 1 else { throw ReportDecodingError(expected: "a whole number ≥ 1") }
        return number
      })
  }
}

extension ReportCodec where T == Date {
  /// An ISO-8601 time in UTC to the millisecond (`2025-01-02T03:04:05.678Z`).
  static var timestamp: ReportCodec {
    ReportCodec(
      schema: ["type": "string", "pattern": #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$"#],
      encode: { date, _ in .string(Timestamp.iso8601(date)) },
      decode: { reader, _ throws(ReportDecodingError) in
        guard let date = Timestamp.parse(try reader.string()) else {
          throw ReportDecodingError(expected: "an ISO-8601 time like 2025-01-02T03:04:05.678Z")
        }
        return date
      })
  }
}

extension ReportCodec where T == StopCause? {
  /// `run.stop_cause`: `{ kind, signal, run_timeout, description }` or `null`.
  static var stopCause: ReportCodec {
    let keys = [
      ReportKey("kind", ["enum": ["signal", "run_timeout", "closed_output"]]),
      ReportKey("signal", ["type": ["string", "null"]], "For kind signal: SIGINT, SIGTERM or SIGHUP."),
      ReportKey("run_timeout", ["type": ["string", "null"]], "For kind run_timeout: the --run-timeout given (20m)."),
      ReportKey("description", ["type": "string"], "SIGINT, --run-timeout 20m passed, closed standard output."),
    ]
    return ReportCodec(
      schema: ["oneOf": [["type": "null"], ReportObject<StopCause>.schema(of: keys)]],
      encode: { cause, _ in
        guard let cause else { return .null }
        var signal: Value = .null
        var limit: Value = .null
        switch cause {
        case .signal(let name): signal = .string(name)
        case .runTimeout(let written): limit = .string(written)
        case .closedOutput: break
        }
        return .object([
          "kind": .string(cause.kind), "signal": signal, "run_timeout": limit,
          "description": .string(cause.description),
        ])
      },
      decode: { reader, _ throws(ReportDecodingError) in
        guard !reader.isNull else { return nil }
        switch try reader.read("kind", { kind throws(ReportDecodingError) in try kind.string() }) {
        case "signal":
          return .signal(try reader.read("signal") { signal throws(ReportDecodingError) in try signal.string() })
        case "run_timeout":
          return .runTimeout(try reader.read("run_timeout") { limit throws(ReportDecodingError) in try limit.string() })
        case "closed_output": return .closedOutput
        default: throw ReportDecodingError(expected: "signal, run_timeout or closed_output", at: ["kind"])
        }
      })
  }
}
