import Foundation
import Testing

/// Every document a Swift file cites is in the repository, down to the section. Comments cite the
/// project's reference documents by section (`docs/protocol.md §4.1`, `docs/design.md §7`; see
/// docs/architecture.md) and public specifications by name (`RFC 6749 §4.1.2`, `OIDC Core §3.1.2.1`).
/// Every `.swift` file under `Sources/` and `Tests/` (this one aside) is read, and these fail:
/// - a citation of a document kept outside the repository (``outsideDocuments``);
/// - `docs/NAME.md §X.Y`, or a continuation right after it (`, §X`, `and §X`, `or §X`, `–§X`, `/ §X`),
///   when docs/NAME.md is missing or has no heading whose text starts with `X.Y` (`### 4.1 …`, `## 4. …`);
/// - any other `§` followed by a number that no public specification's name (``citation``) precedes,
///   so that a bare `§3` is caught.
///
/// A citation wrapped over two lines (`OIDC Core` ending one comment line, `§3.3` starting the next)
/// is read as one line.
@Suite struct DocumentReferenceTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Words that cite documents kept outside the repository, built from parts so that this file does
  /// not hold them.
  static let outsideDocuments: [String] =
    ["PROTOCOL", "DESIGN"].map { $0 + " " + "§" } + ["PROTOCOL", "DESIGN", "STYLE", "CONFORMANCE"].map { $0 + ".md" }
    + [".." + "/shared", "/work" + "/shared"]

  @Test func everyCitedDocumentAndSectionIsInTheRepository() throws {
    let documents = try Self.documentSections()
    #expect(documents["protocol"] != nil && documents["design"] != nil, "docs/protocol.md and docs/design.md")
    let files = Self.swiftFiles()
    #expect(files.count > 100, "the scan finds too few Swift files: \(files.count)")
    var problems: [String] = []
    for (path, url) in files {
      let text = try String(contentsOf: url, encoding: .utf8)
      problems += Self.problems(in: text, path: path, documents: documents)
    }
    #expect(problems.isEmpty, "\(problems.count) unresolved citations:\n\(problems.joined(separator: "\n"))")
  }

  /// The checker names each offender by file and line.
  @Test func unresolvedCitationsAreNamed() {
    let outside = "PROTOCOL" + " §4"
    let text = """
      /// Fine: docs/protocol.md §4.1 and §4, RFC 6749 §4.1.2, §4.1.3, OIDC Core
      /// §3.1.2.1 wrapped, and a '§' that cites nothing.
      /// Missing: docs/protocol.md §9, docs/nowhere.md §1.
      /// Bare: §3 here.
      /// Outside: \(outside).
      """
    let problems = Self.problems(in: text, path: "A.swift", documents: ["protocol": ["4", "4.1"]])
    #expect(
      problems == [
        "A.swift:3: docs/protocol.md has no heading 9",
        "A.swift:3: docs/nowhere.md does not exist",
        "A.swift:4: §3 names no document: cite docs/NAME.md §N or a public specification by name",
        "A.swift:5: cites \"\(outside.dropLast())\", a document outside the repository",
        "A.swift:5: §4 names no document: cite docs/NAME.md §N or a public specification by name",
      ])
  }

  /// The problems of one file's text, each as `path:line: what`.
  static func problems(in text: String, path: String, documents: [String: Set<String>]) -> [String] {
    // A citation with the sections it names: `docs/NAME.md` or a public specification's name, then
    // `§X` and the continuations right after it. The names are those the sources cite.
    let citation =
      #/(?:docs/([A-Za-z0-9_-]+)\.md|(RFC \d+|OIDC Core|OpenID Connect Core(?: 1\.0)?|Connect Core|Core(?: 1\.0)?|Connect Discovery(?: 1\.0)?|Discovery(?: 1\.0)?|Response Mode(?: 1\.0)?|Response Types(?: 1\.0)?|Initiated Logout(?: 1\.0)?|Session Management(?: 1\.0)?|Channel Logout(?: 1\.0)?|CIBA(?: Core)?(?: 1\.0)?|FAPI(?: 2\.0)?|WebAuthn(?: Level \d)?|Encoding Practices|Fetch)) (§ ?\d+(?:\.\d+)*(?:(?:,|,? and|,? or|–| to| /) ?§ ?\d+(?:\.\d+)*)*)/#
    let section = #/§ ?(\d+(?:\.\d+)*)/#
    var found: [String] = []
    var previous = ""
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let place = "\(path):\(index + 1)"
      for word in outsideDocuments where line.contains(word) {
        found.append("\(place): cites \"\(word)\", a document outside the repository")
      }
      // The line read after the one before it, so that a citation wrapped over both is whole.
      let current = content(of: line)
      let joined = previous + " " + current
      let lineStart = joined.index(joined.startIndex, offsetBy: previous.count + 1)
      previous = current
      var cited: Set<String.Index> = []
      for match in joined.matches(of: citation) {
        for number in match.output.3.matches(of: section) where number.range.lowerBound >= lineStart {
          cited.insert(number.range.lowerBound)
          guard let name = match.output.1 else { continue }
          if let headings = documents[String(name)] {
            if !headings.contains(String(number.output.1)) {
              found.append("\(place): docs/\(name).md has no heading \(number.output.1)")
            }
          } else {
            found.append("\(place): docs/\(name).md does not exist")
          }
        }
      }
      for number in joined[lineStart...].matches(of: section) where !cited.contains(number.range.lowerBound) {
        found.append(
          "\(place): §\(number.output.1) names no document: cite docs/NAME.md §N or a public specification by name")
      }
    }
    return found
  }

  /// A line without its indentation and comment marker (`///`, `//`).
  static func content(of line: Substring) -> String {
    var text = line.trimmingCharacters(in: .whitespaces)
    for marker in ["///", "//"] where text.hasPrefix(marker) {
      text = String(text.dropFirst(marker.count)).trimmingCharacters(in: .whitespaces)
      break
    }
    return text
  }

  /// The section numbers of each `docs/*.md` (by name without `.md`): the number its headings start
  /// with, `4.1` of `### 4.1 …`, `4` of `## 4. …`.
  static func documentSections() throws -> [String: Set<String>] {
    let docs = root.appendingPathComponent("docs")
    var documents: [String: Set<String>] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
      let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
      var numbers: Set<String> = []
      for line in text.split(separator: "\n") {
        if let heading = line.prefixMatch(of: #/[#]{1,6} +(\d+(?:\.\d+)*)\.?(?: |$)/#) {
          numbers.insert(String(heading.output.1))
        }
      }
      documents[String(name.dropLast(".md".count))] = numbers
    }
    return documents
  }

  /// Every `.swift` file under `Sources/` and `Tests/` but this one, by path from the repository root.
  static func swiftFiles() -> [(path: String, url: URL)] {
    let this = URL(fileURLWithPath: #filePath).lastPathComponent
    var files: [(path: String, url: URL)] = []
    for top in ["Sources", "Tests"] {
      let enumerator = FileManager.default.enumerator(
        at: root.appendingPathComponent(top), includingPropertiesForKeys: nil)
      while let url = enumerator?.nextObject() as? URL {
        guard url.pathExtension == "swift", url.lastPathComponent != this else { continue }
        let path = url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) : url.path
        files.append((path, url))
      }
    }
    return files.sorted { $0.path < $1.path }
  }
}
