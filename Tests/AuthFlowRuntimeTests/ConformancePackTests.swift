import AuthFlowCore
import AuthFlowRuntime
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// The conformance pack (`conformance-pack/`): valid for the parser and for jsonschema, each module
/// citing the clauses it checks, and on the embedded mock every module passes (with the warnings
/// the mock really earns) except the one needing a capability the mock lacks.
@Suite("Conformance pack")
struct ConformancePackTests {
  static let directory = BundledScenarioTests.root.appendingPathComponent("conformance-pack")

  static var files: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0) }
  }

  @Test("every module is valid for the parser and jsonschema, tagged, and cites the standard")
  func valid() async throws {
    let files = Self.files
    #expect(files.count >= 30)
    let output = await Pipeline.load(files.map(\.path))
    #expect(!output.diagnostics.hasErrors, "\(output.diagnostics.map(\.description))")
    let schema = BundledScenarioTests.root.appendingPathComponent("schemas/scenario.schema.json").path
    let python = Python.run(Python.validateYAMLScript, arguments: [schema] + files.map(\.path))
    #expect(python.status == 0, "\(python.output)")
    #expect(!python.output.contains(" invalid"), "\(python.output)")
    for scenario in output.scenarios {
      let name = (scenario.file as NSString).lastPathComponent
      #expect(scenario.tags.map(\.value).contains("oidc-standard"), "\(name)")
      #expect(scenario.description?.contains("§") == true, "\(name) cites no section")
      let module = String(name.dropLast(".yaml".count))
      #expect(scenario.title.value.hasPrefix(module + ":"), "\(name): the title starts with the module name")
    }
  }

  @Test("on the embedded mock every module passes, but the one needing pkce_required, with the mock's true warnings")
  func mockVerdicts() async throws {
    // The 30-second code reuse is the same scenario as oidcc-codereuse with a wait: left to conformance/run.
    let files = Self.files.filter { !$0.lastPathComponent.contains("30seconds") }
    let yamls = try files.map { try String(contentsOf: $0, encoding: .utf8) }
    let report = try await MockHarness.run(yamls, jobs: 4)
    #expect(report.scenarios.count == files.count)
    var warned: [String: Int] = [:]
    for scenario in report.scenarios {
      let module = String(scenario.name.prefix { $0 != ":" })
      if module == "rfc7636-pkce-required" {
        #expect(scenario.status == .skipped)
        #expect(scenario.skipReason?.contains("lacks capability 'pkce_required'") == true)
        continue
      }
      #expect(scenario.status == .passed, "\(module): \(scenario.problemSummary)")
      if !scenario.warnings.isEmpty { warned[module] = scenario.warnings.count }
    }
    // The mock has no address for alice, refuses the token as a body parameter (RFC 6750 §2.2 MAY)
    // and, as Auth0, keeps the first access token of a reused code.
    #expect(
      warned == [
        "oidcc-scope-address": 1, "oidcc-scope-all": 1, "oidcc-userinfo-post-body": 2, "oidcc-codereuse": 1,
      ], "\(warned)")
  }

  @Test("a request without nonce sends none: `parameters: { nonce: null }` removes a default")
  func nullRemovesADefault() async throws {
    let report = try await MockHarness.run(
      try String(
        contentsOf: Self.directory.appendingPathComponent(
          "oidcc-ensure-request-without-nonce-succeeds-for-code-flow.yaml"), encoding: .utf8))
    #expect(report.status == .passed, "\(report.problemSummary)")
    let url = try #require(report.steps.first?.result?.member("authorize_url")?.stringValue)
    #expect(!url.contains("nonce="))
    #expect(url.contains("code_challenge="))
  }

  /// Runs conformance/verdicts.py on a report with these `(tenant, file, status)` scenarios.
  static func checkVerdicts(_ scenarios: [(String, String, String)], expected: String) throws -> Int32 {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let report: Value = [
      "scenarios": .array(
        scenarios.map { tenant, file, status in
          ["tenant": .string(tenant), "file": .string(file), "status": .string(status), "warnings": 0, "steps": []]
        })
    ]
    try report.jsonText().write(to: directory.appendingPathComponent("r.json"), atomically: true, encoding: .utf8)
    try expected.write(to: directory.appendingPathComponent("e.txt"), atomically: true, encoding: .utf8)
    let script = try String(
      contentsOf: BundledScenarioTests.root.appendingPathComponent("conformance/verdicts.py"), encoding: .utf8)
    return Python.run(
      script,
      arguments: [directory.appendingPathComponent("r.json").path, directory.appendingPathComponent("e.txt").path]
    ).status
  }

  @Test("conformance/run's verdict check: only listed skips and deviations pass, and a stale line fails")
  func verdictCheck() throws {
    let expected = "conformance  pack/a.yaml  failed  ignores max_age (Core §3.1.2.1)\n"
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 0)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "failed"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "skipped"), ("conformance", "pack/a.yaml", "failed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "passed")], expected: expected) == 1)
    #expect(
      try Self.checkVerdicts(
        [("mock", "pack/a.yaml", "passed"), ("conformance", "pack/a.yaml", "error")], expected: expected) == 1)
  }
}
