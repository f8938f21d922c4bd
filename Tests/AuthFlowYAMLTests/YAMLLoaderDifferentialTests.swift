import AuthFlowCore
import AuthFlowTestSupport
import Foundation
import Testing

@testable import AuthFlowYAML

/// The one-pass loader against the two-pass one it replaced (`YamsComposeOracle`: the limits scan,
/// Yams' `compose`, the conversion): the same tree — every node's text, type, quoting and
/// `file:line:col` — and the same diagnostics, on every YAML file of the repository, on mutations
/// of them, on generated documents and on the corner cases of anchors, tags, keys and limits.
@Suite struct YAMLLoaderDifferentialTests {
  /// The repository's YAML: files, and the `yaml` blocks of its documentation.
  static let corpus: [(name: String, text: String)] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var found: [(String, String)] = []
    let folders = [
      "scenarios", "conformance", "conformance-pack", "tenants", "Tests", "Sources", "docs", "bench", "fuzz",
    ]
    for folder in folders {
      let base = root.appendingPathComponent(folder)
      guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
      for case let relative as String in walker {
        let path = base.appendingPathComponent(relative).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
          found.append(("\(folder)/\(relative)", text))
        } else if relative.hasSuffix(".md") {
          found += yamlBlocks(in: text).enumerated().map { ("\(folder)/\(relative)#\($0.offset)", $0.element) }
        }
      }
    }
    for name in ["authflow.yaml", "README.md"] {
      guard let text = try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) else { continue }
      if name.hasSuffix(".md") {
        found += yamlBlocks(in: text).enumerated().map { ("\(name)#\($0.offset)", $0.element) }
      } else {
        found.append((name, text))
      }
    }
    return found.sorted { $0.0 < $1.0 }
  }()

  static func yamlBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.hasPrefix("```yaml") {
        current = []
      } else if let lines = current, line.hasPrefix("```") {
        blocks.append(lines.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Where the two loaders differ on `text`, or nil.
  static func difference(_ text: String, file: String = "t.yaml") -> String? {
    compare(text, file: file).difference
  }

  /// Where the two loaders differ on `text` (nil when they agree), and what the new one made of
  /// it: a tree, or the kind of its diagnostic.
  static func compare(_ text: String, file: String = "t.yaml") -> (difference: String?, outcome: Outcome) {
    let (newTree, newDiagnostics) = YAMLLoader.load(text, file: file)
    let (oldTree, oldDiagnostics) = YamsComposeOracle.load(text, file: file)
    let outcome = Outcome(newDiagnostics.first?.message)
    if newDiagnostics != oldDiagnostics {
      let difference =
        "diagnostics differ:\n new: \(newDiagnostics.map(describe))\n old: \(oldDiagnostics.map(describe))"
      return (difference, outcome)
    }
    let new = newTree.map(TreeDump.text) ?? "nil"
    let old = oldTree.map(TreeDump.text) ?? "nil"
    if new != old { return ("trees differ:\n new:\n\(new)\n old:\n\(old)", outcome) }
    return (nil, outcome)
  }

  /// What a load ended with, so that the generated inputs are seen to reach every outcome.
  enum Outcome: String, CaseIterable {
    case tree, syntaxError, duplicateKey, undefinedAlias, secondDocument, empty, tooDeep, tooManyNodes, other

    init(_ message: String?) {
      guard let message else {
        self = .tree
        return
      }
      let kinds: [(String, Outcome)] = [
        ("duplicate key", .duplicateKey), ("found undefined alias", .undefinedAlias),
        ("found another document", .secondDocument), ("invalid YAML", .syntaxError), ("the file is empty", .empty),
        ("nested more than", .tooDeep), ("expands to more than", .tooManyNodes),
      ]
      self = kinds.first { message.contains($0.0) }?.1 ?? .other
    }
  }

  static func describe(_ diagnostic: Diagnostic) -> String {
    let notes = diagnostic.notes.map { "\($0.location.map(\.description) ?? "-"): \($0.message)" }
    return "\(diagnostic.description) notes=\(notes) hint=\(diagnostic.hint ?? "-")"
  }

  @Test func theCorpusIsThere() {
    #expect(Self.corpus.count > 100, "\(Self.corpus.count) YAML texts")
    #expect(Self.corpus.contains { $0.name.hasPrefix("Tests/FuzzRegressions/yaml-alias-bomb") })
  }

  @Test func everyYAMLTextOfTheRepositoryLoadsAsBefore() {
    for (name, text) in Self.corpus {
      if let difference = Self.difference(text, file: name) { Issue.record("\(name): \(difference)") }
    }
  }

  @Test func mutationsOfTheRepositoryLoadAsBefore() {
    var random = SplitMix64(seed: 0x5EED_1234)
    var failures = 0
    var outcomes: [Outcome: Int] = [:]
    for (name, text) in Self.corpus where text.utf8.count < 200_000 {
      for round in 0..<40 {
        let mutated = Mutation.apply(count: 1 + Int(random.next() % 3), to: text, random: &random)
        let (difference, outcome) = Self.compare(mutated, file: name)
        outcomes[outcome, default: 0] += 1
        guard let difference else { continue }
        failures += 1
        if failures <= 5 { Issue.record("\(name) mutation \(round):\n\(mutated)\n\(difference)") }
      }
    }
    #expect(failures == 0, "\(failures) of \(outcomes.values.reduce(0, +)) mutations differ")
    // Reached at all, whatever the repository's files are today (a second document needs a
    // `---` inserted at a line start: a few of several thousand mutations); the generated
    // documents below reach each outcome often.
    for outcome in [Outcome.tree, .syntaxError, .duplicateKey, .undefinedAlias, .secondDocument] {
      #expect(outcomes[outcome, default: 0] >= 1, "mutations never reach \(outcome): \(outcomes)")
    }
  }

  @Test func generatedDocumentsLoadAsBefore() {
    var random = SplitMix64(seed: 42)
    var failures = 0
    var outcomes: [Outcome: Int] = [:]
    for round in 0..<4000 {
      let text = DocumentGenerator.document(random: &random)
      let (difference, outcome) = Self.compare(text)
      outcomes[outcome, default: 0] += 1
      guard let difference else { continue }
      failures += 1
      if failures <= 5 { Issue.record("document \(round):\n\(text)\n\(difference)") }
    }
    #expect(failures == 0)
    for outcome in [Outcome.tree, .syntaxError, .duplicateKey, .undefinedAlias, .secondDocument] {
      #expect(outcomes[outcome, default: 0] >= 10, "documents reach \(outcome) too rarely: \(outcomes)")
    }
  }

  @Test(arguments: YAMLCornerCases.all)
  func cornerCasesLoadAsBefore(_ corner: YAMLCornerCases.Case) {
    if let difference = Self.difference(corner.text) { Issue.record("\(difference)") }
  }
}

/// A text form of a located tree that shows everything the tree holds.
enum TreeDump {
  static func text(_ node: YAMLNode) -> String {
    var lines: [String] = []
    dump(node, depth: 0, into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func dump(_ node: YAMLNode, depth: Int, into lines: inout [String]) {
    let pad = String(repeating: "  ", count: depth)
    switch node {
    case .scalar(let scalar):
      lines.append(
        "\(pad)\(scalar.location) scalar \(scalar.text.debugDescription) \(String(reflecting: scalar.value))"
          + " quoted=\(scalar.isQuoted) block=\(scalar.isBlock)")
    case .sequence(let items, let location):
      lines.append("\(pad)\(location) list of \(items.count)")
      for item in items { dump(item, depth: depth + 1, into: &lines) }
    case .mapping(let pairs, let location):
      lines.append("\(pad)\(location) mapping of \(pairs.count)")
      for pair in pairs {
        lines.append("\(pad) key:")
        dump(pair.key, depth: depth + 1, into: &lines)
        lines.append("\(pad) value:")
        dump(pair.value, depth: depth + 1, into: &lines)
      }
    }
  }
}

/// Edits that turn a valid file into the inputs a person or a fuzzer writes: lines lost, repeated
/// (duplicate keys), swapped or re-indented, tokens of YAML's syntax dropped in, truncation.
enum Mutation {
  static let tokens = [
    ": ", "- ", "-", "&a ", "&b ", "*a", "*b", " *a", "*nope", "!!str ", "!!int ", "! ", "!t ", "!!value ", "{", "}",
    "[", "]", ", ", "'", "\"", "|", ">-", "#", "%", "@", "`", "\t", "\n", "---\n", "...\n", "? ", "\\", "\u{FEFF}",
    "é", "e\u{301}", "  ", "<<: *a\n", "\"\\u00e9\"", "\"\\0\"", "\"\\uFEFF\"", "~", "0x1F", "1_000", ".inf", "yes",
    "\u{7}", "\r\n", "&a [x, y] ", "{a: 1, a: 2}", "[*a, *a]",
  ]

  static func apply(count: Int, to text: String, random: inout SplitMix64) -> String {
    var text = text
    for _ in 0..<count { text = once(text, random: &random) }
    return text
  }

  private static func once(_ text: String, random: inout SplitMix64) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let line = random.below(lines.count)
    switch random.below(8) {
    case 0:
      lines.remove(at: line)
    case 1:
      lines.insert(lines[line], at: line)
    case 2 where line + 1 < lines.count:
      lines.swapAt(line, line + 1)
    case 3:
      lines[line] = random.below(2) == 0 ? "  " + lines[line] : String(lines[line].dropFirst(min(2, lines[line].count)))
    case 4:
      let characters = Array(text)
      return String(characters.prefix(random.below(characters.count + 1)))
    case 5:
      // An anchor on one value, an alias to it on another.
      let other = random.below(lines.count)
      if let colon = lines[line].firstIndex(of: ":") {
        lines[line].insert(contentsOf: " &x", at: lines[line].index(after: colon))
      }
      if let colon = lines[other].firstIndex(of: ":") {
        lines[other] = String(lines[other][...colon]) + " *x"
      }
    default:
      var characters = Array(lines[line])
      characters.insert(contentsOf: random.pick(tokens), at: random.below(characters.count + 1))
      lines[line] = String(characters)
    }
    return lines.joined(separator: "\n")
  }
}

/// Random documents built from YAML's constructs: block and flow collections, every scalar style,
/// anchors and aliases (some undefined, some redefined), tags, complex keys, keys drawn from a
/// small pool so that some repeat.
enum DocumentGenerator {
  static func document(random: inout SplitMix64) -> String {
    var anchors: [String] = []
    var text = ""
    if random.below(8) == 0 { text += "%YAML 1.1\n---\n" }
    text += block(depth: 0, indent: "", random: &random, anchors: &anchors)
    if random.below(12) == 0 { text += "---\nsecond: document\n" }
    return text
  }

  static let keys = [
    "a", "b", "c", "name", "'a'", "\"a\"", "!!str a", "!!int 1", "1", "! a", "é", "e\u{301}", "null", "~",
  ]
  static let scalars = [
    "x", "'quoted'", "\"double\\tquoted\"", "12", "0o17", "-.inf", "yes", "~", "", "|\n  block\n", "!!str 5", "!t v",
    "\"\\u00e9\"", "${{ vars.x }}", "1:30", "0x1F",
  ]

  private static func properties(random: inout SplitMix64, anchors: inout [String]) -> String {
    switch random.below(10) {
    case 0:
      let name = "n\(random.below(4))"
      anchors.append(name)
      return "&\(name) "
    case 1: return "!!map "
    default: return ""
    }
  }

  private static func alias(random: inout SplitMix64, anchors: [String]) -> String {
    if !anchors.isEmpty, random.below(5) != 0 { return "*\(random.pick(anchors))" }
    return "*n\(random.below(6))"
  }

  private static func block(depth: Int, indent: String, random: inout SplitMix64, anchors: inout [String]) -> String {
    var text = ""
    let entries = 1 + random.below(4)
    let isList = random.below(3) == 0
    for _ in 0..<entries {
      let head = isList ? "\(indent)- " : "\(indent)\(random.pick(keys)): "
      if depth < 4, random.below(3) == 0 {
        let props = properties(random: &random, anchors: &anchors)
        text += head.trimmingCharacters(in: .whitespaces) + (props.isEmpty ? "" : " " + props) + "\n"
        let kind = random.below(3)
        if kind == 0 {
          text += flow(depth: depth + 1, random: &random, anchors: &anchors).map { "\(indent)  \($0)\n" } ?? ""
        } else {
          text += block(depth: depth + 1, indent: indent + "  ", random: &random, anchors: &anchors)
        }
      } else if random.below(6) == 0 {
        text += head + alias(random: &random, anchors: anchors) + "\n"
      } else if random.below(4) == 0 {
        text += head + (flow(depth: depth + 1, random: &random, anchors: &anchors) ?? "[]") + "\n"
      } else {
        let scalar = random.pick(scalars)
        if scalar.hasPrefix("|") {
          text += head + "|\n\(indent)  block\n"
        } else {
          text += head + properties(random: &random, anchors: &anchors) + scalar + "\n"
        }
      }
    }
    if !isList, random.below(6) == 0 {
      text += "\(indent)? [a, b]\n\(indent): complex\n"
    }
    return text
  }

  private static func flow(depth: Int, random: inout SplitMix64, anchors: inout [String]) -> String? {
    let count = random.below(4)
    var items: [String] = []
    let isMapping = random.below(2) == 0
    for _ in 0..<count {
      let value: String
      if depth < 5, random.below(4) == 0 {
        value =
          properties(random: &random, anchors: &anchors)
          + (flow(depth: depth + 1, random: &random, anchors: &anchors) ?? "{}")
      } else if random.below(6) == 0 {
        value = alias(random: &random, anchors: anchors)
      } else {
        let scalar = random.pick(scalars.filter { !$0.hasPrefix("|") && !$0.isEmpty })
        value = properties(random: &random, anchors: &anchors) + scalar
      }
      if isMapping {
        let key = random.below(8) == 0 ? (random.below(2) == 0 ? "[a, b]" : "{k: v}") : random.pick(keys)
        items.append("\(key): \(value)")
      } else {
        items.append(value)
      }
    }
    return isMapping ? "{" + items.joined(separator: ", ") + "}" : "[" + items.joined(separator: ", ") + "]"
  }
}
