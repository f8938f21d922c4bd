public import AuthFlowCore
public import AuthFlowScenario

/// The report's objects, each field declared once (``ReportField``). From these tables come the
/// JSON report's scenarios (``ReportObject/value(of:_:)`` in ``ReportForm/report``), their
/// decoder (`authflow report merge`), the JSON Schema's `scenario`, `step`, `problem` and
/// `location` (`schemas/report.schema.json`), the spool's record (``ReportForm/spool``), and the
/// texts redaction scrubs (``ReportObject/mappingTexts(_:_:)``). The run's own object (`run`,
/// its shard, counts and stop cause) is declared beside the JSON report, which alone writes it.
public enum ReportModel {
  /// The JSON report's version; bumped on incompatible changes (a key added is one: the schema
  /// allows no other key).
  public static let version = 5

  /// A scenario instance (`scenarios[]`).
  public static let scenario = ReportObject<ScenarioReport>(
    definition: "scenario",
    blank: ScenarioReport(
      name: "", file: "", location: SourceLocation(file: "", line: 0, column: 0), tags: [], status: .passed,
      duration: .zero, steps: []),
    fields: [
      .field("name", \.name, .text),
      .field("file", \.file, .text),
      .lineAndColumn(\.location),
      .field("tags", \.tags, .texts),
      .field("tenant", \.tenant, .scenarioTenant),
      .field("status", \.status, .status),
      .field(
        "started", \.started, .boolean,
        "False when the scenario never started (its steps are then the planned ones, none run).",
        // Version 2 listed no steps for a scenario that never started (`completing`).
        since: 3),
      .field("skip_reason", \.skipReason, .optionalText),
      .field("duration_ms", \.duration, .duration),
      .field("steps", \.steps, .list(of: step)),
      .derived("warnings", ReportCodec<Int>.count.schema, "Warnings in the scenario's steps.") { scenario, _ in
        .int(scenario.warnings.count)
      },
    ],
    nested: { scenario, coding in
      var inner = coding
      inner.file = scenario.file
      if coding.writing && coding.form == .report { inner.skippedDependants = scenario.skippedDependantsByBlocker() }
      return inner
    },
    completing: { scenario, coding in
      scenario.location.file = scenario.file
      if coding.version < 3 { scenario.started = !scenario.steps.isEmpty }
    })

  /// A step (`scenarios[].steps[]`).
  public static let step = ReportObject<StepReport>(
    definition: "step",
    blank: StepReport(
      id: "", name: "", action: "", phase: .main, location: SourceLocation(file: "", line: 0, column: 0),
      status: .passed),
    fields: [
      .field("id", \.id, .text),
      .field("name", \.name, .text),
      .field("action", \.action, .text),
      .field("phase", \.phase, .oneOf(StepPhase.allCases, expected: "main or cleanup")),
      .lineAndColumn(\.location),
      .field("status", \.status, .status),
      .field("skip_reason", \.skipReason, .optionalText),
      .field(
        "blocked_by", \.blockedBy, .optionalText, "For a step skipped because a step it needs failed: that step."),
      .derived(
        "skipped_dependants", ReportCodec<[String]>.texts.schema,
        "For a failed or errored step: the steps skipped because of it."
      ) { step, coding in
        guard step.status == .failed || step.status == .error else { return [] }
        return .array((coding.skippedDependants["\(step.phase.rawValue)/\(step.id)"] ?? []).map(Value.string))
      },
      .field("needs", \.needs, .texts, "The steps of the same phase this one waits for in the flow graph."),
      .field("duration_ms", \.duration, .duration),
      .field("attempts", \.attempts, .count),
      .field("problems", \.problems, .list(of: problem)),
      .field("exchanges", \.exchanges, .texts, "HTTP exchanges as --trace prints them, masked."),
      .field(
        "result", \.result, .stepResult,
        "The step's result as the scenario reads it (steps.<id>); secrets as \"***\"; a JWT as { raw, header, claims, signature_valid }."
      ),
    ],
    completing: { step, coding in step.location.file = coding.file })

  /// What went wrong in a step (`scenarios[].steps[].problems[]`).
  public static let problem = ReportObject<Problem>(
    definition: "problem", blank: Problem(.action, "", at: nil),
    fields: [
      .field(
        "kind", \.kind, .oneOf(Problem.Kind.allCases, expected: "a problem kind (expectation, timeout, …)"),
        "Why the step did not pass (Problem.Kind)."),
      .field(
        "severity", \.severity, .oneOf(CheckSeverity.allCases, expected: "error or warning"),
        "error fails the step; warning (severity: warning) is reported only."),
      .field("message", \.message, .text),
      .field("location", \.location, .optional(location)),
      .field("path", \.path, .optionalText),
      .field("matcher", \.matcher, .optionalText),
      .field("expected", \.expected, .optionalText),
      .field("actual", \.actual, .optionalText),
    ])

  /// Where in a YAML file a problem is (`…problems[].location`).
  public static let location = ReportObject<SourceLocation>(
    definition: "location", blank: SourceLocation(file: "", line: 0, column: 0),
    fields: [.field("file", \.file, .text), .field("line", \.line, .count), .field("column", \.column, .count)])

  /// The objects the JSON Schema declares under `$defs`, by name: these and the status.
  public static var definitions: [String: Value] {
    [
      "status": ["enum": .array(Status.reportOrder.map { .string($0.rawValue) })],
      "scenario": scenario.schema, "step": step.schema, "problem": problem.schema, "location": location.schema,
    ]
  }
}

extension ReportCodec where T == Status {
  /// A status, by reference to the schema's `status`.
  public static var status: ReportCodec {
    .oneOf(
      Status.reportOrder, expected: "a status (passed, failed, error, interrupted, skipped)", definition: "status")
  }
}

extension ReportCodec where T == String? {
  /// A scenario's tenant: in the JSON report always written (the run's when the scenario has
  /// none), and read back as nil when it is the run's; in the spool as it is.
  static var scenarioTenant: ReportCodec {
    ReportCodec(
      schema: ["type": "string"],
      encode: { tenant, coding in
        coding.form == .report ? .string(tenant ?? coding.runTenant) : tenant.map(Value.string) ?? .null
      },
      decode: { reader, coding throws(ReportDecodingError) in
        switch coding.form {
        case .report:
          let tenant = try reader.string()
          return tenant == coding.runTenant ? nil : tenant
        case .spool: return reader.isNull ? nil : try reader.string()
        }
      },
      mapTexts: { tenant, map in tenant.map(map) })
  }
}

extension ReportCodec where T == Value? {
  /// A step's result. In the JSON report `null` when there is none, each JWT written out as the
  /// scenario reads it (``AuthFlowCore/Value/expandingTokens()``). In the spool — whose results
  /// are already expanded and settled — the key is left out when there is none, so that no result
  /// and a result of `null` stay apart. Every string and key in it is scrubbed by redaction.
  static var stepResult: ReportCodec {
    ReportCodec(
      schema: [:], acceptsMissing: true,
      encode: { result, coding in
        switch coding.form {
        case .report: return result?.expandingTokens() ?? .null
        case .spool: return result
        }
      },
      decode: { reader, coding throws(ReportDecodingError) in
        switch coding.form {
        case .report:
          guard let value = reader.value else { throw ReportDecodingError(expected: "a value (the key is missing)") }
          return value.isNull ? Value?.none : value  // (Value is nil-literal expressible: spell none)
        case .spool: return reader.value
        }
      },
      mapTexts: { result, map in result?.mappingStrings(map) })
  }
}

extension ScenarioReport {
  /// The ids of the steps skipped because of each failed step, by `phase/id` of the step that
  /// blocked them (`skipped_dependants`).
  public func skippedDependantsByBlocker() -> [String: [String]] {
    var result: [String: [String]] = [:]
    for step in steps where step.status == .skipped {
      guard let blocker = step.blockedBy else { continue }
      result["\(step.phase.rawValue)/\(blocker)", default: []].append(step.id)
    }
    return result
  }
}
