import AuthFlowRuntime
import AuthFlowScenario
import Foundation
import Testing

/// The generated vocabularies list everything the code declares, and their links lead somewhere.
@Suite("Generated vocabularies")
struct VocabularyDocsTests {
  static let docs = GeneratedFilesTests.root.appendingPathComponent("docs")

  static func pages() async -> [String: String] {
    Dictionary(
      await ReferenceDocs.pages(docs: docs).map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
  }

  @Test("docs/capabilities.md has a row for every capability of the vocabulary")
  func everyCapability() async throws {
    let page = try #require(await Self.pages()["capabilities.md"])
    for (name, _) in CapabilityVocabulary.builtIn {
      #expect(page.contains("| `\(name)` |"), "no row for '\(name)'")
    }
  }

  @Test("Every capability says which flows need it: an action, a parameter value or a bundled scenario")
  func everyCapabilityIsNeededBySomething() async throws {
    let bundled = await BundledScenarios.load(repository: GeneratedFilesTests.root)
    #expect(bundled.requirements.count > 50, "the bundled scenarios are read")
    let page = try #require(await Self.pages()["capabilities.md"])
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for (name, _) in CapabilityVocabulary.builtIn {
      let actions = ActionRegistry.all.filter { action in
        action.traits.capabilities.contains(name) || action.traits.capabilityUses.contains { $0.capability == name }
      }
      #expect(!actions.isEmpty || !bundled.requiring(name).isEmpty, "nothing says which flows need '\(name)'")
      let row = rows.first { $0.hasPrefix("| `\(name)` |") }.map(String.init) ?? ""
      #expect(!row.hasSuffix("| — | — |"), "the row of '\(name)' names no action and no scenario")
    }
  }

  @Test("A parameter-value capability names a declared parameter, a value it takes, and a known capability")
  func capabilityUsesAreDeclared() {
    for action in ActionRegistry.all {
      for use in action.traits.capabilityUses {
        let name = action.signature.name
        #expect(CapabilityVocabulary.builtInNames.contains(use.capability), "\(name): unknown '\(use.capability)'")
        let parameter = action.signature.parameter(use.parameterName)
        #expect(parameter != nil, "\(name): no parameter '\(use.parameterName)'")
        if case .oneOf(let values) = use.condition, case .oneOf(let allowed)? = parameter?.type {
          #expect(Set(values).isSubset(of: allowed), "\(name).\(use.parameter): \(values) not in \(allowed)")
        }
      }
    }
  }

  @Test("docs/errors.md has a row for every code an action declares, naming the action")
  func everyErrorCode() async throws {
    let page = try #require(await Self.pages()["errors.md"])
    let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
    for action in ActionRegistry.all {
      for error in action.traits.errors {
        let row = rows.first { $0.hasPrefix("| `\(error.code)` |") }
        #expect(row?.contains("[`\(action.signature.name)`]") == true, "\(error.code) of \(action.signature.name)")
      }
    }
  }

  @Test("Every relative link of a generated page leads to a file")
  func linksResolve() async throws {
    let link = /\]\(([^)#:]+\.(?:md|yaml))(#[^)]*)?\)/
    var checked = 0
    let pages = await Self.pages()
    for (path, text) in pages {
      let directory = Self.docs.appendingPathComponent(path).deletingLastPathComponent()
      for match in text.matches(of: link) {
        let target = directory.appendingPathComponent(String(match.output.1)).standardizedFileURL
        let generated =
          target.path.hasPrefix(Self.docs.path + "/")
          && pages[String(target.path.dropFirst(Self.docs.path.count + 1))] != nil
        #expect(
          generated || FileManager.default.fileExists(atPath: target.path), "docs/\(path) links to \(match.output.1)")
        checked += 1
      }
    }
    #expect(checked > ActionRegistry.all.count)
  }
}
