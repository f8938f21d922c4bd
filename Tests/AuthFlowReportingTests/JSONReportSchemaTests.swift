import AuthFlowCore
import AuthFlowResults
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowReporting

/// The JSON report's schema is generated from one declaration (``JSONReportSchema``): the
/// reporter writes exactly the keys it declares, every one always, its enums are the code's, and
/// Python's `jsonschema` accepts the reports the reporter writes and refuses one with a key
/// missing or one too many. (`GeneratedFilesTests` checks `schemas/report.schema.json` is the
/// generated text.)
@Suite struct JSONReportSchemaTests {
  /// Reports covering every object the schema declares: failures with located problems, a skip
  /// and a stopped run with its cause, planned steps, a shard.
  static var reports: [(name: String, report: RunReport)] {
    var sharded = ReportFixtures.run
    sharded.shard = Shard(index: 2, count: 3)
    var timedOut = ReportFixtures.interrupted
    timedOut.stopCause = .runTimeout("20m")
    return [
      ("run", ReportFixtures.run), ("interrupted", ReportFixtures.interrupted), ("shard", sharded),
      ("timed-out", timedOut), ("plan", ReportFixtures.plan),
    ]
  }

  static func render(_ report: RunReport, name: String) async throws -> String {
    let output = CapturedOutput()
    try await JSONReporter(
      spec: ReporterSpec(name: "json", path: name), context: ReporterContext(secrets: SecretRegistry(), output: output)
    ).finish(report)
    return try #require(await output.files[name])
  }

  @Test func encoderWritesExactlyTheDeclaredKeys() async throws {
    var seen: Set<String> = []
    for (name, report) in Self.reports {
      let value = try Value(jsonText: try await Self.render(report, name: name))
      Self.visit(value, path: "") { path, members in
        guard let keys = JSONReportSchema.objects[path] else {
          Issue.record("\(name): an object at \(path.isEmpty ? "the root" : path) that the schema does not declare")
          return
        }
        seen.insert(path)
        #expect(Set(members.keys) == Set(keys.map(\.name)), "\(name): \(path)")
      }
    }
    // Every declared object was checked against a real report.
    #expect(seen == Set(JSONReportSchema.objects.keys))
  }

  /// Calls `body` with each object of the report that a declared path can reach (a step's
  /// `result` is the scenario's data, not the report's structure).
  static func visit(_ value: Value, path: String, _ body: (String, [String: Value]) -> Void) {
    switch value {
    case .object(let members):
      body(path, members)
      for (key, child) in members where key != "result" {
        visit(child, path: path.isEmpty ? key : "\(path).\(key)", body)
      }
    case .array(let items):
      for item in items { visit(item, path: path + "[]", body) }
    default:
      break
    }
  }

  @Test func schemaFollowsTheCode() throws {
    let schema = JSONReportSchema.document
    #expect(schema.lookup(path: ["properties", "format", "const"]) == .string(JSONReport.format))
    #expect(schema.lookup(path: ["properties", "version", "const"]) == .int(JSONReport.version))
    let statuses = schema.lookup(path: ["$defs", "status", "enum"])?.arrayValue?.compactMap(\.stringValue)
    #expect(statuses?.sorted() == Status.reportOrder.map(\.rawValue).sorted())
    let kinds = schema.lookup(path: ["$defs", "problem", "properties", "kind", "enum"])?.arrayValue ?? []
    #expect(kinds.count == Problem.Kind.allCases.count)
    #expect(kinds.allSatisfy { $0.stringValue.flatMap(Problem.Kind.init(rawValue:)) != nil })
    // Every key is required and no other is allowed, at every level.
    for (path, keys) in JSONReportSchema.objects {
      let object = JSONReportSchema.object(keys)
      #expect(object.member("additionalProperties") == false, "\(path)")
      #expect(object.member("required")?.arrayValue?.count == keys.count, "\(path)")
    }
  }

  @Test(.enabled(if: Python.interpreter != nil, Comment(rawValue: Python.skipNotice)))
  func reportsValidate() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schemaPath = directory.appendingPathComponent("report.schema.json").path
    try JSONReportSchema.generate().write(toFile: schemaPath, atomically: true, encoding: .utf8)
    var files: [String] = []
    for (name, report) in Self.reports {
      let text = try await Self.render(report, name: name)
      let path = directory.appendingPathComponent("\(name).json").path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      files.append(path)
      if name == "run" {
        for (broken, changed) in [
          ("missing-key", text.replacingOccurrences(of: #""needs": [],"#, with: "")),
          ("extra-key", text.replacingOccurrences(of: #""started": true,"#, with: #""started": true, "extra": 1,"#)),
          ("bad-stop-cause", text.replacingOccurrences(of: #""stop_cause": null"#, with: #""stop_cause": "SIGINT""#)),
        ] {
          #expect(changed != text, "\(broken)")
          let brokenPath = directory.appendingPathComponent("\(broken).json").path
          try changed.write(toFile: brokenPath, atomically: true, encoding: .utf8)
          files.append(brokenPath)
        }
      }
    }
    let python = Python.run(Python.validateJSONScript, arguments: [schemaPath] + files)
    #expect(python.status == 0, "\(python.output)")
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
      "\($0.split(separator: "/").last ?? "")"
    }
    #expect(
      verdicts == [
        "run.json valid", "missing-key.json invalid", "extra-key.json invalid", "bad-stop-cause.json invalid",
        "interrupted.json valid", "shard.json valid", "timed-out.json valid", "plan.json valid",
      ],
      "\(python.output)")
  }
}
