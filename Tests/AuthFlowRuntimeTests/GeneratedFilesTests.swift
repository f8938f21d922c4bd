import AuthFlowReporting
import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The files generated from the code — the scenario and JSON report schemas, the reference docs
/// and the generated sections of hand-written pages — are checked in; these tests fail when they
/// drift. Regenerate with `authflow schema --output schemas/scenario.schema.json`, `authflow
/// schema report --output schemas/report.schema.json` and `authflow docs`.
@Suite("Generated files are up to date")
struct GeneratedFilesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test("schemas/scenario.schema.json is the schema generated from the action registry")
  func scenarioSchema() throws {
    let file = Self.root.appendingPathComponent("schemas/scenario.schema.json")
    let checkedIn = try String(contentsOf: file, encoding: .utf8)
    let generated = ScenarioSchema.generate(catalog: ActionRegistry.catalog)
    #expect(
      checkedIn.trimmingCharacters(in: .whitespacesAndNewlines)
        == generated.trimmingCharacters(in: .whitespacesAndNewlines),
      "run: authflow schema --output schemas/scenario.schema.json")
  }

  @Test("schemas/report.schema.json is the schema generated from the JSON report's declaration")
  func reportSchema() throws {
    let file = Self.root.appendingPathComponent("schemas/report.schema.json")
    let checkedIn = try String(contentsOf: file, encoding: .utf8)
    #expect(checkedIn == JSONReportSchema.generate(), "run: authflow schema report --output schemas/report.schema.json")
  }

  @Test("docs/ holds the reference pages and the generated sections made from the code")
  func referenceDocs() async throws {
    let pages = await ReferenceDocs.pages(docs: Self.root.appendingPathComponent("docs"))
    #expect(pages.contains { $0.path == "scenario-language.md" }, "the matcher table's page is generated in part")
    for page in pages {
      let file = Self.root.appendingPathComponent("docs").appendingPathComponent(page.path)
      let checkedIn = try? String(contentsOf: file, encoding: .utf8)
      #expect(checkedIn == page.text, "docs/\(page.path) is out of date: run `authflow docs`")
    }
  }
}
