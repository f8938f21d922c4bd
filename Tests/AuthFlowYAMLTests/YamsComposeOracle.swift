import AuthFlowCore
// The limits scan calls libyaml through the package's own module, as AuthFlowYAML does; Yams'
// `CYaml` is no product of Yams (Package.swift, AuthFlowYAMLTests, on the two copies of libyaml).
import CLibYAML
import Foundation
import Yams

@testable import AuthFlowYAML

/// The YAML loader as it was before the one-pass composer, kept word for word as the oracle of
/// `YAMLLoaderDifferentialTests`: a limits scan over libyaml's events, then Yams' `compose` (with
/// its duplicate-key check) and a conversion of Yams' `Node` tree into the located tree. Only
/// `typedValue` differs, where Yams trapped.
enum YamsComposeOracle {
  static func load(_ text: String, file: String) -> (YAMLNode?, [Diagnostic]) {
    // Limits first: Yams composes recursively and hashes mapping keys whole, so an input past them
    // must never reach it.
    if let limit = check(text, file: file) { return (nil, [limit]) }
    do {
      // The basic resolver: no tag resolution (regular expressions) while composing, which Yams
      // would otherwise run on every key for its duplicate-key check. Plain scalars are typed
      // below, and only those that may be typed at all. The encoding is given: Yams's default
      // reads the whole process environment on every parse (`YAMS_DEFAULT_ENCODING`).
      guard let node = try Yams.compose(yaml: text, .basic, .default, .utf8) else {
        return (
          nil,
          [
            .error(
              "the file is empty", at: SourceLocation(file: file, line: 1, column: 1),
              hint: "a scenario needs at least 'scenario:' and 'steps:'")
          ]
        )
      }
      return (convert(node, file: file), [])
    } catch let error as YamlError {
      return (nil, [diagnostic(for: error, file: file, text: text)])
    } catch {
      return (nil, [.error("could not read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))])
    }
  }

  private static func convert(_ node: Node, file: String) -> YAMLNode {
    let location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    switch node {
    case .scalar(let scalar):
      return .scalar(
        YAMLScalar(
          text: scalar.string, value: typedValue(of: scalar),
          isQuoted: scalar.style == .singleQuoted || scalar.style == .doubleQuoted,
          isBlock: scalar.style == .literal || scalar.style == .folded, location: location))
    case .sequence(let sequence):
      return .sequence(sequence.map { convert($0, file: file) }, location)
    case .mapping(let mapping):
      return .mapping(
        mapping.map { YAMLPair(key: convert($0.key, file: file), value: convert($0.value, file: file)) }, location)
    case .alias(let alias):
      return .scalar(
        YAMLScalar(
          text: alias.anchor.rawValue, value: .string(alias.anchor.rawValue), isQuoted: false, isBlock: false,
          location: location))
    }
  }

  private static func typedValue(of scalar: Node.Scalar) -> Value {
    guard scalar.style == .plain, mayBeTyped(scalar.string) else { return .string(scalar.string) }
    // The one change to the old code: Yams traps on a base-60 int past `Int`; the new loader reads
    // it as a float (`YAMLScalarTypingTests`), and so does the oracle rather than stop the tests.
    if YamsTrap.sexagesimalOverflows(scalar.string) { return YAMLLoader.typedValue(of: scalar.string, isPlain: true) }
    // Resolved with Yams' default (YAML 1.1) rules, as `compose` with its default resolver would.
    let typed = Node.scalar(Node.Scalar(scalar.string, Tag(.implicit, .default, .default), .plain))
    if typed.null != nil { return .null }
    if let flag = typed.bool { return .bool(flag) }
    if let number = typed.int { return .int(number) }
    if let number = typed.float { return .double(number) }
    return .string(scalar.string)
  }

  /// Whether Yams' constructors could read `text` as anything but a string: null (`""`, `~`,
  /// `null`), a bool (`true`, `yes`, `on`, … in any case), an int or a float (which, underscores
  /// removed, start with a sign, a digit or a dot, or spell `inf`/`infinity`/`nan`/`snan`). Most scalars
  /// (keys, names, expressions) are not, and skip the constructors' costly string handling.
  static func mayBeTyped(_ text: String) -> Bool {
    guard let first = text.utf8.first(where: { $0 != UInt8(ascii: "_") }) else { return true }
    switch first {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "~"):
      return true
    case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "o"),
      UInt8(ascii: "O"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "n"), UInt8(ascii: "N"),
      UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "s"), UInt8(ascii: "S"):
      // ASCII letters lowercased, underscores dropped: enough to compare with the words below.
      let letters = Array(text.utf8.lazy.filter { $0 != UInt8(ascii: "_") }.map { $0 | 0x20 })
      if typedWords.contains(where: { $0.elementsEqual(letters) }) { return true }
      return ["inf", "nan", "snan"].contains { letters.starts(with: $0.utf8) }
    default:
      return false
    }
  }

  /// Words a constructor reads as null or a bool, lowercased.
  private static let typedWords: [String.UTF8View] = ["null", "true", "yes", "on", "false", "no", "off"].map(\.utf8)

  private static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
    func located(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let notes = context.map { [Diagnostic.Note($0.text, at: located($0.mark))] } ?? []
      return .error(
        "invalid YAML: \(problem)", at: located(mark), notes: notes,
        hint: hint(for: problem, at: character(in: text, line: mark.line, column: mark.column)))
    case .duplicatedKeysInMapping(let duplicates, let context):
      let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
      return .error(
        "duplicate key \(keys) in a mapping", at: located(context.mark),
        hint: "each key may appear once in a mapping; remove or rename the repeated one")
    case .reader(let problem, _, _, _):
      return .error(
        "could not read the file as UTF-8 text: \(problem)", at: SourceLocation(file: file, line: 1, column: 1))
    default:
      return .error("invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
    }
  }

  /// The character at a 1-based line and column, if there is one. Lines are split at each "\n"
  /// scalar as libyaml counts them: a "\r\n" is one Swift `Character`, so splitting the `String`
  /// would miss the line break in it and read the wrong line after it.
  private static func character(in text: String, line: Int, column: Int) -> Character? {
    let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count else { return nil }
    let scalars = Array(lines[line - 1])
    return column >= 1 && column <= scalars.count ? Character(scalars[column - 1]) : nil
  }

  private static func hint(for problem: String, at character: Character?) -> String? {
    if problem.contains("tab") || character == "\t" { return "YAML indentation must use spaces, not tabs" }
    if problem.contains("mapping values are not allowed") {
      return "a value containing ': ' must be quoted, or a key is indented too far"
    }
    if problem.contains("did not find expected key") {
      return "check the indentation of this line against the one above"
    }
    if problem.contains("found character that cannot start any token") {
      return "quote values that start with '@', '`' or '%'; write expressions as \"${{ … }}\""
    }
    return nil
  }

  // The old `YAMLLimits.check` and its scan.
  /// The first limit `text` breaks, or nil. Syntax errors are left to the loader, which reports
  /// them with libyaml's own words.
  static func check(_ text: String, file: String) -> Diagnostic? {
    let bytes = text.utf8.count
    if bytes > InputLimits.fileBytes { return .fileTooLarge(file, bytes: bytes) }
    var text = text
    return text.withUTF8 { buffer in scan(buffer, file: file) }
  }

  private struct Frame {
    var anchor: String?
    var nodes: Int
  }

  private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, file: String) -> Diagnostic? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return nil }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)

    var frames: [Frame] = []
    var anchors: [String: Int] = [:]
    var total = 0
    var event = yaml_event_t()
    while yaml_parser_parse(&parser, &event) == 1 {
      defer { yaml_event_delete(&event) }
      let location = SourceLocation(
        file: file, line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
      var added = 0
      switch event.type {
      case YAML_STREAM_END_EVENT:
        return nil
      case YAML_SCALAR_EVENT:
        added = 1
        if let anchor = string(event.data.scalar.anchor) { anchors[anchor] = 1 }
      case YAML_ALIAS_EVENT:
        added = string(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
        total += added
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        let anchor =
          event.type == YAML_SEQUENCE_START_EVENT
          ? string(event.data.sequence_start.anchor) : string(event.data.mapping_start.anchor)
        frames.append(Frame(anchor: anchor, nodes: 1))
        total += 1
        if frames.count > InputLimits.yamlDepth { return .yamlTooDeep(at: location) }
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
        continue
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        guard let frame = frames.popLast() else { continue }
        if let anchor = frame.anchor { anchors[anchor] = frame.nodes }
        if !frames.isEmpty { frames[frames.count - 1].nodes += frame.nodes }
        continue
      default:
        continue
      }
      if event.type == YAML_SCALAR_EVENT {
        total += 1
        if total > InputLimits.yamlNodes { return .yamlTooManyNodes(at: location) }
      }
      if !frames.isEmpty { frames[frames.count - 1].nodes += added }
    }
    return nil
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
