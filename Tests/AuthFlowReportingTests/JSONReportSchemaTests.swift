import AuthFlowCore
import AuthFlowResults
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowReporting

/// `schemas/report.schema.json` describes what the JSON reporter writes: its format, version and
/// status names are the code's, and Python's `jsonschema` accepts the reports the reporter writes
/// and refuses one with a key missing.
@Suite struct JSONReportSchemaTests {
  static let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("schemas/report.schema.json").path

  @Test func schemaFollowsTheCode() throws {
    let schema = try Value(json: try Data(contentsOf: URL(fileURLWithPath: Self.schemaPath)))
    #expect(schema.lookup(path: ["properties", "format", "const"]) == .string(JSONReport.format))
    #expect(schema.lookup(path: ["properties", "version", "const"]) == .int(JSONReport.version))
    let statuses = schema.lookup(path: ["$defs", "status", "enum"])?.arrayValue?.compactMap(\.stringValue)
    #expect(statuses?.sorted() == Status.reportOrder.map(\.rawValue).sorted())
    let kinds = schema.lookup(path: ["$defs", "problem", "properties", "kind", "enum"])?.arrayValue ?? []
    #expect(kinds.count == 7)
    #expect(kinds.allSatisfy { $0.stringValue.flatMap(Problem.Kind.init(rawValue:)) != nil })
  }

  @Test(.enabled(if: Python.interpreter != nil, Comment(rawValue: Python.skipNotice)))
  func reportsValidate() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var sharded = ReportFixtures.run
    sharded.shard = Shard(index: 2, count: 3)
    var files: [String] = []
    for (name, report) in [
      ("run", ReportFixtures.run), ("interrupted", ReportFixtures.interrupted), ("shard", sharded),
    ] {
      let output = CapturedOutput()
      try await JSONReporter(
        spec: ReporterSpec(name: "json", path: name),
        context: ReporterContext(secrets: SecretRegistry(), output: output)
      ).finish(report)
      let text = try #require(await output.files[name])
      let path = directory.appendingPathComponent("\(name).json").path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      files.append(path)
      if name == "run" {
        let broken = directory.appendingPathComponent("broken.json").path
        try text.replacingOccurrences(of: #""needs": [],"#, with: "").write(
          toFile: broken, atomically: true, encoding: .utf8)
        files.append(broken)
      }
    }
    let python = Python.run(Python.validateJSONScript, arguments: [Self.schemaPath] + files)
    #expect(python.status == 0, "\(python.output)")
    let verdicts = python.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map {
      "\($0.split(separator: "/").last ?? "")"
    }
    #expect(
      verdicts == ["run.json valid", "broken.json invalid", "interrupted.json valid", "shard.json valid"],
      "\(python.output)")
  }
}
