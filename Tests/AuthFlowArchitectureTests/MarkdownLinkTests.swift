import Foundation
import Testing

/// Every link between the repository's Markdown documents resolves: the file is there and, for a
/// link to a section (`ci.md#sharding-a-suite-across-ci-jobs`, `#the-report-model`), the document
/// has a heading with that anchor as GitHub makes it (lower case, punctuation dropped, spaces to
/// hyphens, `-1`, `-2` after a repeated heading). Links to the web are not followed.
@Suite struct MarkdownLinkTests {
  static let root = DocumentReferenceTests.root

  /// The Markdown files checked: the README and everything under docs/, scenarios/, conformance/
  /// and interop/.
  static func documents() -> [String] {
    var found = ["README.md"]
    for directory in ["docs", "scenarios", "conformance", "interop", "monitor"] {
      let base = root.appendingPathComponent(directory)
      guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walker where url.pathExtension == "md" {
        found.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
      }
    }
    return found.sorted()
  }

  @Test func everyLinkBetweenDocumentsResolves() throws {
    let documents = Self.documents()
    #expect(documents.count > 10, "the scan finds too few documents: \(documents.count)")
    var anchors: [String: Set<String>] = [:]
    func anchorsOf(_ path: String) -> Set<String>? {
      if let known = anchors[path] { return known }
      guard let text = try? String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8) else {
        return nil
      }
      let made = Self.anchors(in: text)
      anchors[path] = made
      return made
    }
    var problems: [String] = []
    for document in documents {
      let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
      for (line, target) in Self.links(in: text) {
        let (file, anchor) = Self.split(target)
        let resolved = file.isEmpty ? document : Self.resolve(file, from: document)
        guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(resolved).path) else {
          problems.append("\(document):\(line): \(target): \(resolved) does not exist")
          continue
        }
        guard let anchor, resolved.hasSuffix(".md") else { continue }
        if !(anchorsOf(resolved)?.contains(anchor) ?? false) {
          problems.append("\(document):\(line): \(target): \(resolved) has no heading #\(anchor)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.count) broken links:\n\(problems.joined(separator: "\n"))")
  }

  @Test func anchorsAreGitHubs() {
    let text = """
      # Reports and CI: the HTML report, JUnit
      ## The JSON report (version 5)
      ### `authflow report merge FILE…`
      ## Memory at 100,000: where the peak was (2026-11-28, afternoon)
      ## Figures
      ## Figures
      ```
      # not a heading
      ```
      """
    #expect(
      Self.anchors(in: text) == [
        "reports-and-ci-the-html-report-junit", "the-json-report-version-5", "authflow-report-merge-file",
        "memory-at-100000-where-the-peak-was-2026-11-28-afternoon", "figures", "figures-1",
      ])
    #expect(
      Self.links(in: "see [a](ci.md#x) and [b](#y), not [c](https://e.example/#z) or `[d](e.md)`").map(\.1) == [
        "ci.md#x", "#y",
      ])
  }

  /// The anchors of a document's headings (outside fenced code).
  static func anchors(in text: String) -> Set<String> {
    var made: Set<String> = []
    var counts: [String: Int] = [:]
    var fenced = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { fenced.toggle() }
      guard !fenced, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }
      guard title.first == " " else { continue }
      var slug = ""
      for character in title.trimmingCharacters(in: .whitespaces).lowercased() {
        if character.isLetter || character.isNumber || character == "_" || character == "-" {
          slug.append(character)
        } else if character == " " {
          slug.append("-")
        }
      }
      let seen = counts[slug, default: 0]
      counts[slug] = seen + 1
      made.insert(seen == 0 ? slug : "\(slug)-\(seen)")
    }
    return made
  }

  /// The relative link targets of a document, with their lines: `[text](target)` outside code
  /// spans and fenced code, not `http(s):` or `mailto:`.
  static func links(in text: String) -> [(Int, String)] {
    var found: [(Int, String)] = []
    var fenced = false
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("```") { fenced.toggle() }
      guard !fenced else { continue }
      // Code spans dropped: the text between pairs of backticks.
      let plain = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
      var rest = Substring(plain)
      while let open = rest.range(of: "](") {
        let after = rest[open.upperBound...]
        guard let close = after.firstIndex(of: ")") else { break }
        let target = String(after[..<close]).split(separator: " ").first.map(String.init) ?? ""
        rest = after[after.index(after: close)...]
        guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
        found.append((number + 1, target))
      }
    }
    return found
  }

  static func split(_ target: String) -> (file: String, anchor: String?) {
    guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
    return (String(target[..<hash]), String(target[target.index(after: hash)...]))
  }

  /// `file` relative to the directory of `document`, as a path from the root.
  static func resolve(_ file: String, from document: String) -> String {
    var parts = document.split(separator: "/").dropLast().map(String.init)
    for part in file.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(String(part))
      }
    }
    return parts.joined(separator: "/")
  }
}
