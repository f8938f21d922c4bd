import AuthFlowCore
public import AuthFlowResults
import AuthFlowScenario
public import Foundation

extension JSONReport {
  /// A JSON report read back: the run, and what only the file says about it.
  public struct Decoded: Sendable {
    public var report: RunReport
    /// True when the run that wrote it had `--show-secrets` (`run.secrets_shown`).
    public var secretsShown: Bool
  }

  /// Reads a JSON report of this format and a version it reads (``readableVersions``) back into a
  /// run report, so that any reporter can render it (`authflow report merge`). Strict: every key
  /// the version has must be there with its type; the error names the JSON path. `name` (the
  /// file) prefixes every message. A version 2 report has no stop cause, and its scenarios started
  /// when they list steps (version 2 listed none for a scenario that never started).
  public static func decode(_ data: Data, name: String) throws(JSONReportError) -> Decoded {
    guard let root = try? Value(json: data), case .object = root, root.member("format")?.stringValue == format else {
      throw .notAReport(name)
    }
    guard let found = root.member("version")?.intValue, readableVersions.contains(found) else {
      throw .unsupportedVersion(name, found: root.member("version")?.intValue)
    }
    let reader = JSONReader(value: root, path: "", file: name, version: found)
    let run = try reader.member("run")
    let tenant = try run.member("tenant").string()
    guard let startedAt = Timestamp.parse(try run.member("started_at").string()) else {
      throw .malformed(name, path: "run.started_at", expected: "an ISO-8601 time like 2025-01-02T03:04:05.678Z")
    }
    let shardReader = try run.member("shard")
    var shard: Shard?
    if !shardReader.isNull {
      guard
        var parsed = Shard(index: try shardReader.member("index").int(), count: try shardReader.member("count").int())
      else { throw .malformed(name, path: "run.shard", expected: "{ index, count } with 1 ≤ index ≤ count") }
      if found >= 4 { parsed.selection = try decodeSelection(shardReader, name: name) }
      shard = parsed
    }
    let scenarios = try reader.member("scenarios").array().map { scenario throws(JSONReportError) in
      try decodeScenario(scenario, runTenant: tenant)
    }
    let stopCause = found >= 3 ? try decodeStopCause(try run.member("stop_cause")) : nil
    let report = RunReport(
      tenant: tenant, startedAt: startedAt, duration: .milliseconds(try run.member("duration_ms").int()),
      scenarios: scenarios, interrupted: try run.member("interrupted").bool(), shard: shard, stopCause: stopCause)
    return Decoded(report: report, secretsShown: try run.member("secrets_shown").bool())
  }

  /// A shard's `selected` and `selection` (version 4), nil when both are null.
  private static func decodeSelection(_ shard: JSONReader, name: String) throws(JSONReportError) -> Shard.Selection? {
    let selected = try shard.member("selected")
    let selection = try shard.member("selection")
    if selected.isNull && selection.isNull { return nil }
    guard !selected.isNull, !selection.isNull else {
      throw .malformed(name, path: "run.shard", expected: "selected and selection both given, or both null")
    }
    let text = try selection.string()
    guard text.utf8.count == 16, text.utf8.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }),
      let digest = UInt64(text, radix: 16)
    else { throw .malformed(name, path: "run.shard.selection", expected: "16 hex digits") }
    let instances = try selected.int()
    guard Self.selectedInstances.contains(instances) else {
      throw .malformed(
        name, path: "run.shard.selected",
        expected: "a count of scenario instances up to \(Self.selectedInstances.upperBound)")
    }
    return Shard.Selection(instances: instances, digest: digest)
  }

  /// The counts a shard's `selected` may have: a run of more instances than this is not one.
  static let selectedInstances = 0...Int(UInt32.max)

  private static func decodeStopCause(_ reader: JSONReader) throws(JSONReportError) -> StopCause? {
    guard !reader.isNull else { return nil }
    let kind = try reader.member("kind").string()
    switch kind {
    case "signal": return .signal(try reader.member("signal").string())
    case "run_timeout": return .runTimeout(try reader.member("run_timeout").string())
    case "closed_output": return .closedOutput
    default:
      throw .malformed(reader.file, path: reader.path + ".kind", expected: "signal, run_timeout or closed_output")
    }
  }

  private static func decodeScenario(_ reader: JSONReader, runTenant: String) throws(JSONReportError) -> ScenarioReport
  {
    let file = try reader.member("file").string()
    let tenant = try reader.member("tenant").string()
    let steps = try reader.member("steps").array().map { step throws(JSONReportError) in
      try decodeStep(step, file: file)
    }
    let started = reader.version >= 3 ? try reader.member("started").bool() : !steps.isEmpty
    return ScenarioReport(
      name: try reader.member("name").string(), file: file,
      location: SourceLocation(
        file: file, line: try reader.member("line").int(), column: try reader.member("column").int()),
      tags: try reader.member("tags").array().map { tag throws(JSONReportError) in try tag.string() },
      status: try reader.member("status").status(), skipReason: try reader.member("skip_reason").optionalString(),
      duration: .milliseconds(try reader.member("duration_ms").int()), steps: steps,
      tenant: tenant == runTenant ? nil : tenant, started: started)
  }

  private static func decodeStep(_ reader: JSONReader, file: String) throws(JSONReportError) -> StepReport {
    let phaseText = try reader.member("phase").string()
    guard let phase = StepPhase(rawValue: phaseText) else {
      throw .malformed(reader.file, path: reader.path + ".phase", expected: "main or cleanup")
    }
    let result = try reader.member("result")
    return StepReport(
      id: try reader.member("id").string(), name: try reader.member("name").string(),
      action: try reader.member("action").string(), phase: phase,
      location: SourceLocation(
        file: file, line: try reader.member("line").int(), column: try reader.member("column").int()),
      status: try reader.member("status").status(), skipReason: try reader.member("skip_reason").optionalString(),
      duration: .milliseconds(try reader.member("duration_ms").int()), attempts: try reader.member("attempts").int(),
      problems: try reader.member("problems").array().map { problem throws(JSONReportError) in
        try decodeProblem(problem)
      },
      result: result.isNull ? Value?.none : result.value, blockedBy: try reader.member("blocked_by").optionalString(),
      needs: try reader.member("needs").array().map { need throws(JSONReportError) in try need.string() },
      exchanges: try reader.member("exchanges").array().map { text throws(JSONReportError) in try text.string() })
  }

  private static func decodeProblem(_ reader: JSONReader) throws(JSONReportError) -> Problem {
    guard let kind = Problem.Kind(rawValue: try reader.member("kind").string()) else {
      throw .malformed(reader.file, path: reader.path + ".kind", expected: "a problem kind (expectation, timeout, …)")
    }
    let locationReader = try reader.member("location")
    var location: SourceLocation?
    if !locationReader.isNull {
      location = SourceLocation(
        file: try locationReader.member("file").string(), line: try locationReader.member("line").int(),
        column: try locationReader.member("column").int())
    }
    let severityText = try reader.member("severity").string()
    guard let severity = CheckSeverity(rawValue: severityText) else {
      throw .malformed(reader.file, path: reader.path + ".severity", expected: "error or warning")
    }
    return Problem(
      kind, try reader.member("message").string(), at: location, path: try reader.member("path").optionalString(),
      matcher: try reader.member("matcher").optionalString(), expected: try reader.member("expected").optionalString(),
      actual: try reader.member("actual").optionalString(), severity: severity)
  }
}

/// Reads a JSON value with the path of each member, for errors that say where.
struct JSONReader {
  var value: Value
  var path: String
  var file: String
  /// The report's version: which keys it has.
  var version: Int

  var isNull: Bool { value.isNull }

  func member(_ key: String) throws(JSONReportError) -> JSONReader {
    let childPath = path.isEmpty ? key : "\(path).\(key)"
    guard case .object(let members) = value else { throw .malformed(file, path: path, expected: "an object") }
    guard let child = members[key] else {
      throw .malformed(file, path: childPath, expected: "a value (the key is missing)")
    }
    return JSONReader(value: child, path: childPath, file: file, version: version)
  }

  func string() throws(JSONReportError) -> String {
    guard case .string(let text) = value else { throw .malformed(file, path: path, expected: "a string") }
    return text
  }

  func optionalString() throws(JSONReportError) -> String? {
    isNull ? nil : try string()
  }

  func int() throws(JSONReportError) -> Int {
    guard case .int(let number) = value, number >= 0 else {
      throw .malformed(file, path: path, expected: "a whole number ≥ 0")
    }
    return number
  }

  func bool() throws(JSONReportError) -> Bool {
    guard case .bool(let flag) = value else { throw .malformed(file, path: path, expected: "true or false") }
    return flag
  }

  func status() throws(JSONReportError) -> Status {
    guard let status = Status(rawValue: try string()) else {
      throw .malformed(file, path: path, expected: "a status (passed, failed, error, interrupted, skipped)")
    }
    return status
  }

  func array() throws(JSONReportError) -> [JSONReader] {
    guard case .array(let items) = value else { throw .malformed(file, path: path, expected: "an array") }
    return items.enumerated().map { JSONReader(value: $1, path: "\(path)[\($0)]", file: file, version: version) }
  }
}
