import AuthFlowCore
import AuthFlowScenario
import Foundation

/// One scenario report as a line of a ``ScenarioSpool``: compact JSON, every field of the report
/// kept exactly (durations to the attosecond), so that a report read back renders byte for byte
/// as the one written. Step results are plain JSON here: the spool's `prepare` step has already
/// replaced each secret with the mask (or, with `--show-secrets`, with its value).
///
/// ```text
/// { "n": name, "f": file, "l": [file, line, column], "t": [tags], "s": status, "r": skip reason | null,
///   "d": [seconds, attoseconds], "te": tenant | null, "sa": started,
///   "st": [ { "i": id, "n": name, "a": action, "p": phase, "l": [file, line, column], "s": status,
///             "r": skip reason | null, "d": [seconds, attoseconds], "at": attempts,
///             "pr": [ { "k": kind, "m": message, "l": [file, line, column] | null, "pa", "ma", "e",
///                       "ac": texts | null, "sv": severity } ],
///             "re": result (left out when there is none), "b": blocked by | null, "ne": [needs],
///             "x": [exchanges] } ] }
/// ```
enum SpoolRecord {
  /// The report as one line of JSON text (no newline inside: strings escape theirs). A value still
  /// wrapped as a secret is written as the mask, whatever `prepare` did.
  static func encode(_ report: ScenarioReport) -> String {
    var members: [String: Value] = [
      "n": .string(report.name), "f": .string(report.file),
      "l": .array([.string(report.location.file), .int(report.location.line), .int(report.location.column)]),
      "t": .array(report.tags.map(Value.string)), "s": .string(report.status.rawValue),
      "r": optional(report.skipReason), "d": duration(report.duration), "te": optional(report.tenant),
      "sa": .bool(report.started),
    ]
    members["st"] = .array(report.steps.map(encode))
    return Value.object(members).jsonText(revealSecrets: false)
  }

  /// The report of a line written by ``encode(_:)``; nil when the line is not one.
  static func decode(_ bytes: Data) -> ScenarioReport? {
    guard let value = try? Value(json: bytes), let record = value.objectValue,
      let name = record["n"]?.stringValue, let file = record["f"]?.stringValue,
      let location = location(record["l"]), let tags = strings(record["t"]), let status = status(record["s"]),
      let duration = duration(record["d"]), case .bool(let started)? = record["sa"],
      let stepValues = record["st"]?.arrayValue
    else { return nil }
    var steps: [StepReport] = []
    steps.reserveCapacity(stepValues.count)
    for stepValue in stepValues {
      guard let step = step(stepValue) else { return nil }
      steps.append(step)
    }
    return ScenarioReport(
      name: name, file: file, location: location, tags: tags, status: status, skipReason: record["r"]?.stringValue,
      duration: duration, steps: steps, tenant: record["te"]?.stringValue, started: started)
  }

  private static func encode(_ step: StepReport) -> Value {
    var members: [String: Value] = [
      "i": .string(step.id), "n": .string(step.name), "a": .string(step.action), "p": .string(step.phase.rawValue),
      "l": location(step.location), "s": .string(step.status.rawValue), "r": optional(step.skipReason),
      "d": duration(step.duration), "at": .int(step.attempts), "pr": .array(step.problems.map(encode)),
      "b": optional(step.blockedBy), "ne": .array(step.needs.map(Value.string)),
      "x": .array(step.exchanges.map(Value.string)),
    ]
    // No result and a result of `null` are apart: the key is left out for none.
    if let result = step.result { members["re"] = result }
    return .object(members)
  }

  private static func encode(_ problem: Problem) -> Value {
    .object([
      "k": .string(problem.kind.rawValue), "m": .string(problem.message),
      "l": problem.location.map(location) ?? .null, "pa": optional(problem.path), "ma": optional(problem.matcher),
      "e": optional(problem.expected), "ac": optional(problem.actual), "sv": .string(problem.severity.rawValue),
    ])
  }

  private static func step(_ value: Value) -> StepReport? {
    guard let step = value.objectValue, let id = step["i"]?.stringValue, let name = step["n"]?.stringValue,
      let action = step["a"]?.stringValue, let phase = step["p"]?.stringValue.flatMap(StepPhase.init(rawValue:)),
      let location = location(step["l"]), let status = status(step["s"]), let duration = duration(step["d"]),
      let attempts = step["at"]?.intValue, let problemValues = step["pr"]?.arrayValue,
      let needs = strings(step["ne"]), let exchanges = strings(step["x"])
    else { return nil }
    var problems: [Problem] = []
    for problemValue in problemValues {
      guard let problem = problem(problemValue) else { return nil }
      problems.append(problem)
    }
    let result: Value? = step["re"]
    return StepReport(
      id: id, name: name, action: action, phase: phase, location: location, status: status,
      skipReason: step["r"]?.stringValue, duration: duration, attempts: attempts, problems: problems, result: result,
      blockedBy: step["b"]?.stringValue, needs: needs, exchanges: exchanges)
  }

  private static func problem(_ value: Value) -> Problem? {
    guard let problem = value.objectValue, let kind = problem["k"]?.stringValue.flatMap(Problem.Kind.init(rawValue:)),
      let message = problem["m"]?.stringValue,
      let severity = problem["sv"]?.stringValue.flatMap(CheckSeverity.init(rawValue:))
    else { return nil }
    let place: SourceLocation? = problem["l"].flatMap { location($0) }
    return Problem(
      kind, message, at: place, path: problem["pa"]?.stringValue, matcher: problem["ma"]?.stringValue,
      expected: problem["e"]?.stringValue, actual: problem["ac"]?.stringValue, severity: severity)
  }

  private static func optional(_ text: String?) -> Value { text.map(Value.string) ?? .null }

  private static func location(_ location: SourceLocation) -> Value {
    .array([.string(location.file), .int(location.line), .int(location.column)])
  }

  private static func location(_ value: Value?) -> SourceLocation? {
    guard let parts = value?.arrayValue, parts.count == 3, let file = parts[0].stringValue,
      let line = parts[1].intValue, let column = parts[2].intValue
    else { return nil }
    return SourceLocation(file: file, line: line, column: column)
  }

  private static func duration(_ duration: Duration) -> Value {
    let (seconds, attoseconds) = duration.components
    return .array([.int(Int(seconds)), .int(Int(attoseconds))])
  }

  private static func duration(_ value: Value?) -> Duration? {
    guard let parts = value?.arrayValue, parts.count == 2, case .int(let seconds) = parts[0],
      case .int(let attoseconds) = parts[1]
    else { return nil }
    return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(attoseconds))
  }

  private static func status(_ value: Value?) -> Status? { value?.stringValue.flatMap(Status.init(rawValue:)) }

  private static func strings(_ value: Value?) -> [String]? {
    guard let items = value?.arrayValue else { return nil }
    var texts: [String] = []
    texts.reserveCapacity(items.count)
    for item in items {
      guard case .string(let text) = item else { return nil }
      texts.append(text)
    }
    return texts
  }
}
