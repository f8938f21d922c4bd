public import AuthFlowCore
import Yams

/// A YAML document as a located tree: every node knows its `file:line:col`. The first stage of
/// every loader (scenarios, `authflow.yaml`, mock fixtures).
public indirect enum YAMLNode: Sendable {
  case scalar(YAMLScalar)
  case sequence([YAMLNode], SourceLocation)
  case mapping([YAMLPair], SourceLocation)

  public var location: SourceLocation {
    switch self {
    case .scalar(let scalar): return scalar.location
    case .sequence(_, let location), .mapping(_, let location): return location
    }
  }

  /// What a person calls this kind of node in an error message.
  public var kindName: String {
    switch self {
    case .scalar(let scalar): return scalar.value.typeName
    case .sequence: return "list"
    case .mapping: return "mapping"
    }
  }
}

/// A scalar with its resolved YAML type and its quoting style.
public struct YAMLScalar: Sendable {
  /// The source text, after YAML unescaping.
  public var text: String
  /// The typed value: plain scalars resolve to null, bool, int, float or string; quoted ones are strings.
  public var value: Value
  /// True for single- or double-quoted scalars: their text starts one column after `location`.
  public var isQuoted: Bool
  /// True for block scalars (`|`, `>`): their text starts on the next line.
  public var isBlock: Bool
  public var location: SourceLocation

  /// Where the character at `offset` in `text` is in the file, for single-line scalars.
  public func location(ofOffset offset: Int) -> SourceLocation {
    if isBlock { return location }
    return location.advanced(by: offset + (isQuoted ? 1 : 0))
  }
}

/// `key: value` in a mapping, in source order.
public struct YAMLPair: Sendable {
  public var key: YAMLNode
  public var value: YAMLNode

  /// The key's text when the key is a scalar.
  public var keyText: String? {
    if case .scalar(let scalar) = key { return scalar.text }
    return nil
  }
}

/// Reads YAML text into a located tree, turning libyaml's errors into located diagnostics.
public enum YAMLLoader {
  /// Composes the first document of `text`. On a syntax error the tree is nil and the diagnostic
  /// says where and what.
  public static func load(_ text: String, file: String) -> (YAMLNode?, [Diagnostic]) {
    // Limits first: Yams composes recursively and hashes mapping keys whole, so an input past them
    // must never reach it.
    if let limit = YAMLLimits.check(text, file: file) { return (nil, [limit]) }
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
      return .error("invalid YAML: \(problem)", at: located(mark), notes: notes, hint: hint(for: problem))
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

  private static func hint(for problem: String) -> String? {
    if problem.contains("tab") { return "YAML indentation must use spaces, not tabs" }
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
}
