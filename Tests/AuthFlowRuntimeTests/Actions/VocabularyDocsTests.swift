import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The generated vocabularies list everything the code declares, and their links lead somewhere.
@Suite("Generated vocabularies")
struct VocabularyDocsTests {
  static let pages = Dictionary(
    ReferenceDocs.pages().map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
  static let docs = GeneratedFilesTests.root.appendingPathComponent("docs")

  @Test("docs/capabilities.md has a row for every capability of the vocabulary")
  func everyCapability() throws {
    let page = try #require(Self.pages["capabilities.md"])
    for (name, _) in CapabilityVocabulary.builtIn {
      #expect(page.contains("| `\(name)` |"), "no row for '\(name)'")
    }
  }

  @Test("docs/errors.md has a row for every code an action declares, naming the action")
  func everyErrorCode() throws {
    let page = try #require(Self.pages["errors.md"])
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for action in ActionRegistry.all {
      for error in action.traits.errors {
        let row = rows.first { $0.hasPrefix("| `\(error.code)` |") }
        #expect(row?.contains("[`\(action.signature.name)`]") == true, "\(error.code) of \(action.signature.name)")
      }
    }
  }

  @Test("Every relative link of a generated page leads to a file")
  func linksResolve() throws {
    let link = /\]\(([^)#:]+\.md)(#[^)]*)?\)/
    var checked = 0
    for (path, text) in Self.pages {
      let directory = Self.docs.appendingPathComponent(path).deletingLastPathComponent()
      for match in text.matches(of: link) {
        let target = directory.appendingPathComponent(String(match.output.1)).standardizedFileURL
        let generated =
          target.path.hasPrefix(Self.docs.path + "/")
          && Self.pages[String(target.path.dropFirst(Self.docs.path.count + 1))] != nil
        #expect(
          generated || FileManager.default.fileExists(atPath: target.path), "docs/\(path) links to \(match.output.1)")
        checked += 1
      }
    }
    #expect(checked > ActionRegistry.all.count)
  }
}
