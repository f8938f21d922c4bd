import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// Every YAML file in `scenarios/` is valid for both the Swift parser and Python's `jsonschema`
/// with `schemas/scenario.schema.json`; a file broken on purpose fails both. So schema and parser
/// cannot drift apart.
@Suite("Bundled scenarios agree with the schema")
struct BundledScenarioTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var scenarioFiles: [String] {
    let directory = root.appendingPathComponent("scenarios")
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    var files: [String] = []
    while let next = enumerator?.nextObject() as? String {
      guard next.hasSuffix(".yaml") || next.hasSuffix(".yml"), !next.hasSuffix("authflow.yaml"),
        !next.split(separator: "/").contains("tenants")
      else { continue }
      files.append(directory.appendingPathComponent(next).path)
    }
    return files.sorted()
  }

  @Test("Every bundled scenario is valid for the parser")
  func bundledScenariosAreValid() async throws {
    let files = Self.scenarioFiles
    #expect(!files.isEmpty)
    let output = await Pipeline.load(files)
    #expect(!output.diagnostics.hasErrors, "\(output.diagnostics.map(\.description))")
  }

  @Test(
    "Every bundled scenario is valid for jsonschema",
    .enabled(if: Python.interpreter != nil, Comment(rawValue: Python.skipNotice)))
  func bundledScenariosAreValidForJSONSchema() async throws {
    let files = Self.scenarioFiles
    let schema = Self.root.appendingPathComponent("schemas/scenario.schema.json").path
    let python = Python.run(Python.validateYAMLScript, arguments: [schema] + files)
    #expect(
      python.status == 0, "python3 with jsonschema and PyYAML is required (.ci/run installs them): \(python.output)")
    #expect(!python.output.contains(" invalid"), "\(python.output)")
    #expect(python.output.components(separatedBy: " valid").count - 1 == files.count, "\(python.output)")
  }

  @Test(
    "A scenario with a misspelt action fails both the parser and jsonschema",
    .enabled(if: Python.interpreter != nil, Comment(rawValue: Python.skipNotice)))
  func invalidScenarioFailsBoth() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authflow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("broken.yaml")
    try """
    scenario: Broken on purpose
    steps:
      - id: call
        htp: { url: x }
        expect: { status: 200 }
    """.write(to: file, atomically: true, encoding: .utf8)
    let output = await Pipeline.load([file.path])
    #expect(output.diagnostics.hasErrors)
    let schema = Self.root.appendingPathComponent("schemas/scenario.schema.json").path
    let python = Python.run(Python.validateYAMLScript, arguments: [schema, file.path])
    #expect(python.status == 0, "\(python.output)")
    #expect(python.output.contains("broken.yaml invalid"), "\(python.output)")
  }
}
