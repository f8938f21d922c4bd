import AuthFlowCore
import AuthFlowScenario
import AuthFlowTestSupport
import Foundation
import Testing

/// The matcher names and `type` names the parser accepts (`MatcherRegistry`, `Matcher.typeNames`)
/// are exactly the ones docs/scenario-language.md's table and the generated JSON Schema list.
@Suite struct MatcherVocabularyTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The registry's names: sorted, each once.
  private var registry: Set<String> {
    let names = MatcherRegistry.names
    #expect(names == names.sorted(), "MatcherRegistry.kinds is sorted by name")
    #expect(Set(names).count == names.count, "a matcher is registered twice: \(names)")
    return Set(names)
  }

  private static var docsURL: URL { root.appendingPathComponent("docs/scenario-language.md") }

  /// The rows of the table under `| matcher |` in docs/scenario-language.md: first cell, second cell.
  private func docsTable() throws -> [(names: [String], meaning: String)] {
    let text = try String(contentsOf: Self.docsURL, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex { $0.hasPrefix("| matcher |") })
    return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { row in
      let cells = row.split(separator: "|", omittingEmptySubsequences: true).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      return (backticked(cells.first ?? ""), cells.dropFirst().first ?? "")
    }
  }

  private func backticked(_ text: String) -> [String] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  private func schemaMatcher() throws -> [String: Any] {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("schemas/scenario.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let defs = try #require(schema["$defs"] as? [String: Any])
    let matcher = try #require(defs["matcher"] as? [String: Any])
    let branches = try #require(matcher["anyOf"] as? [[String: Any]])
    let object = try #require(branches.first { $0["type"] as? String == "object" })
    return try #require(object["properties"] as? [String: Any])
  }

  @Test func theDocsTableListsEveryMatcherOnce() throws {
    let documented = try docsTable().flatMap(\.names)
    #expect(documented.count == Set(documented).count, "a matcher is listed twice: \(documented)")
    #expect(Set(documented) == registry)
  }

  /// The table in docs/scenario-language.md is `MatcherRegistry.documentationTable`, generated
  /// from each matcher's own `documentation`; `authflow docs` rewrites it between its markers.
  @Test func theDocsTableIsGeneratedFromTheRegistry() throws {
    let text = try String(contentsOf: Self.docsURL, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = try #require(lines.firstIndex { $0.hasPrefix("| matcher |") })
    #expect(lines[header - 1] == "<!-- generated: matchers (authflow docs) -->", "the table has its start marker")
    let end = lines[header...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
    let table = lines[header..<end].joined(separator: "\n")
    #expect(table == MatcherRegistry.documentationTable, "regenerate with `authflow docs`")
  }

  @Test func theSchemaListsEveryMatcher() throws {
    let properties = try schemaMatcher()
    #expect(Set(properties.keys).subtracting(["severity"]) == registry)
  }

  @Test func typeNamesAgree() throws {
    let row = try #require(try docsTable().first { $0.names == ["type"] })
    let documented = backticked(row.meaning).filter { $0.allSatisfy(\.isLetter) }
    #expect(Set(documented) == Set(Matcher.typeNames))
    let type = try #require(try schemaMatcher()["type"] as? [String: Any])
    let branches = try #require(type["anyOf"] as? [[String: Any]])
    let names = try #require(branches.compactMap { $0["enum"] as? [String] }.first)
    #expect(Set(names) == Set(Matcher.typeNames))
    for name in Matcher.typeNames {
      let found = diagnostics(MarkedText("scenario: x\nsteps:\n  - logout:\n    expect:\n      a: { type: '\(name)' }"))
      #expect(found.isEmpty, "type \(name): \(found.map(\.message))")
    }
  }
}
