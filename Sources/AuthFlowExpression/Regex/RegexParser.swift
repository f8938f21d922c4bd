import AuthFlowCore

/// Reads a pattern (RE2's dialect, without Unicode classes) into a `RegexNode` tree.
///
/// Supported: literals and escapes (`\n \t \r \f \v \0 \xHH \x{…}`, escaped punctuation), `.`,
/// classes `[…]` with ranges, negation and `[:alpha:]`-style names, `\d \w \s \D \W \S`, anchors
/// `^ $ \A \z`, `\b \B`, groups `( )`, `(?: )`, `(?<name> )`, `(?P<name> )`, flags `(?i)`, `(?m)`,
/// `(?s)` and `(?flags: …)`, alternation, and `* + ? {m} {m,} {m,n}` (lazy forms accepted). Not
/// supported, each named in its error: backreferences, lookahead and lookbehind, atomic groups,
/// possessive quantifiers, Unicode property classes.
struct RegexParser {
  /// The deepest nesting of groups.
  static let depthLimit = 100

  struct Flags {
    var foldCase = false
    var multiline = false
    var dotAll = false
  }

  private let scalars: [Unicode.Scalar]
  private var position = 0
  private var depth = 0
  /// How many capturing groups were opened so far.
  private(set) var captureCount = 0

  init(_ pattern: String) {
    scalars = Array(pattern.unicodeScalars)
  }

  static func parse(_ pattern: String) throws(RegexSyntaxError) -> RegexNode {
    try parseCounting(pattern).node
  }

  /// The tree and how many capturing groups it has.
  static func parseCounting(_ pattern: String) throws(RegexSyntaxError) -> (node: RegexNode, captures: Int) {
    let length = pattern.unicodeScalars.count
    if length > InputLimits.regexPatternLength { throw .tooLong(length) }
    var parser = RegexParser(pattern)
    var flags = Flags()
    let node = try parser.parseAlternation(flags: &flags)
    if parser.position < parser.scalars.count { throw .unbalancedParenthesis(at: parser.position) }
    return (node, parser.captureCount)
  }

  private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  private func peek(_ ahead: Int) -> Unicode.Scalar? {
    position + ahead < scalars.count ? scalars[position + ahead] : nil
  }

  // MARK: Structure

  private mutating func parseAlternation(flags: inout Flags) throws(RegexSyntaxError) -> RegexNode {
    var branches = [try parseConcatenation(flags: &flags)]
    while current == "|" {
      position += 1
      branches.append(try parseConcatenation(flags: &flags))
    }
    return branches.count == 1 ? branches[0] : .alternate(branches)
  }

  private mutating func parseConcatenation(flags: inout Flags) throws(RegexSyntaxError) -> RegexNode {
    var items: [RegexNode] = []
    while let scalar = current, scalar != "|", scalar != ")" {
      let start = position
      guard let atom = try parseAtom(flags: &flags) else { continue }
      items.append(try parseQuantifiers(atom, start: start))
    }
    switch items.count {
    case 0: return .empty
    case 1: return items[0]
    default: return .concat(items)
    }
  }

  private mutating func parseQuantifiers(_ atom: RegexNode, start: Int) throws(RegexSyntaxError) -> RegexNode {
    guard let (min, max) = try parseQuantifier() else { return atom }
    if case .assertion = atom { throw .nothingToRepeat(at: start) }
    let lazy = current == "?"
    if lazy { position += 1 }
    if current == "+" { throw .unsupported("a possessive quantifier", at: position) }
    if let next = current, "*+?".unicodeScalars.contains(next) || (next == "{" && isCountedRepetition()) {
      throw .nothingToRepeat(at: position)
    }
    return .repeat(atom, min: min, max: max, lazy: lazy)
  }

  private mutating func parseQuantifier() throws(RegexSyntaxError) -> (Int, Int?)? {
    switch current {
    case "*":
      position += 1
      return (0, nil)
    case "+":
      position += 1
      return (1, nil)
    case "?":
      position += 1
      return (0, 1)
    case "{" where isCountedRepetition():
      let start = position
      position += 1
      let min = readNumber()
      var max: Int? = min
      if current == "," {
        position += 1
        max = current == "}" ? nil : readNumber()
      }
      position += 1  // '}'
      guard let min, min <= InputLimits.regexRepetition,
        max.map({ $0 >= min && $0 <= InputLimits.regexRepetition }) ?? true
      else { throw .badRepetition(at: start) }
      return (min, max)
    default:
      return nil
    }
  }

  /// `{` starts a counted repetition only as `{m}`, `{m,}` or `{m,n}`; otherwise it is a literal.
  private func isCountedRepetition() -> Bool {
    var index = position + 1
    var digits = 0
    while index < scalars.count, ("0"..."9").contains(scalars[index]) {
      index += 1
      digits += 1
    }
    guard digits > 0, index < scalars.count else { return false }
    if scalars[index] == "}" { return true }
    guard scalars[index] == "," else { return false }
    index += 1
    while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
    return index < scalars.count && scalars[index] == "}"
  }

  /// Digits as a number, saturating past the repetition limit.
  private mutating func readNumber() -> Int? {
    var value = 0
    var any = false
    while let scalar = current, ("0"..."9").contains(scalar) {
      value = min(value * 10 + Int(scalar.value - 48), InputLimits.regexRepetition + 1)
      position += 1
      any = true
    }
    return any ? value : nil
  }

  // MARK: Atoms

  /// One atom; nil for a flag group `(?i)`, which only changes `flags`.
  private mutating func parseAtom(flags: inout Flags) throws(RegexSyntaxError) -> RegexNode? {
    guard let scalar = current else { return nil }
    let start = position
    switch scalar {
    case "(":
      return try parseGroup(flags: &flags)
    case "[":
      return .set(try parseClass(flags: flags))
    case ".":
      position += 1
      return .any(dotAll: flags.dotAll)
    case "^":
      position += 1
      return .assertion(flags.multiline ? .startOfLine : .startOfText)
    case "$":
      position += 1
      return .assertion(flags.multiline ? .endOfLine : .endOfText)
    case "\\":
      return try parseEscape(flags: flags)
    case "*", "+", "?":
      throw .nothingToRepeat(at: start)
    case "{" where isCountedRepetition():
      throw .nothingToRepeat(at: start)
    default:
      position += 1
      return .literal(scalar, foldCase: flags.foldCase)
    }
  }

  private mutating func parseGroup(flags outer: inout Flags) throws(RegexSyntaxError) -> RegexNode? {
    let open = position
    position += 1
    var flags = outer
    var capture: Int? = nil
    if current == "?" {
      position += 1
      switch current {
      case ":":
        position += 1
      case "=": throw .lookaround("lookahead (?=…)", at: open)
      case "!": throw .lookaround("negative lookahead (?!…)", at: open)
      case ">": throw .unsupported("an atomic group (?>…)", at: open)
      case "#": throw .unsupported("a comment group (?#…)", at: open)
      case "(": throw .unsupported("a conditional (?(…)…)", at: open)
      case "<" where peek(1) == "=": throw .lookaround("lookbehind (?<=…)", at: open)
      case "<" where peek(1) == "!": throw .lookaround("negative lookbehind (?<!…)", at: open)
      case "<", "P", "'":
        try skipGroupName(at: open)
        captureCount += 1
        capture = captureCount
      default:
        // Flags: (?i) for the rest of the enclosing group, or (?i: … ) for this one.
        var negate = false
        var changed = flags
        while let scalar = current, scalar != ")", scalar != ":" {
          switch scalar {
          case "-": negate = true
          case "i": changed.foldCase = !negate
          case "m": changed.multiline = !negate
          case "s": changed.dotAll = !negate
          default: throw .badFlag(Character(scalar), at: position)
          }
          position += 1
        }
        guard let end = current else { throw .missingParenthesis(at: open) }
        position += 1
        if end == ")" {
          outer = changed
          return nil
        }
        flags = changed
      }
    } else {
      captureCount += 1
      capture = captureCount
    }
    depth += 1
    defer { depth -= 1 }
    if depth > Self.depthLimit { throw .tooDeep(at: open) }
    let inner = try parseAlternation(flags: &flags)
    guard current == ")" else { throw .missingParenthesis(at: open) }
    position += 1
    return capture.map { .capture(inner, index: $0) } ?? inner
  }

  /// `<name>`, `P<name>`, `'name'` of a named group (the name is not used: a named group is
  /// numbered as any capturing group). `(?P=name)` and `(?P>name)` are backreferences and recursion.
  private mutating func skipGroupName(at open: Int) throws(RegexSyntaxError) {
    if current == "P" {
      position += 1
      if current == "=" { throw .backreference(at: open) }
      if current == ">" { throw .unsupported("recursion (?P>…)", at: open) }
    }
    let close: Unicode.Scalar = current == "'" ? "'" : ">"
    position += 1
    while let scalar = current, scalar != close { position += 1 }
    guard current == close else { throw .missingParenthesis(at: open) }
    position += 1
  }

  // MARK: Escapes

  private mutating func parseEscape(flags: Flags) throws(RegexSyntaxError) -> RegexNode {
    let start = position
    position += 1
    guard let scalar = current else { throw .trailingBackslash(at: start) }
    position += 1
    switch scalar {
    case "d", "D", "w", "W", "s", "S":
      var set = RegexCharSet()
      set.named = [Self.named(scalar)]
      return .set(set)
    case "b": return .assertion(.wordBoundary)
    case "B": return .assertion(.notWordBoundary)
    case "A": return .assertion(.startOfText)
    case "z": return .assertion(.endOfText)
    default:
      return .literal(try escapedCharacter(scalar, start: start), foldCase: flags.foldCase)
    }
  }

  private static func named(_ scalar: Unicode.Scalar) -> (RegexCharSet.Named, negated: Bool) {
    switch scalar {
    case "d": return (.digit, false)
    case "D": return (.digit, true)
    case "w": return (.word, false)
    case "W": return (.word, true)
    case "s": return (.space, false)
    default: return (.space, true)
    }
  }

  /// The character an escape stands for (after the backslash and `scalar` were read).
  private mutating func escapedCharacter(
    _ scalar: Unicode.Scalar, start: Int
  ) throws(RegexSyntaxError)
    -> Unicode.Scalar
  {
    switch scalar {
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    case "f": return "\u{0C}"
    case "v": return "\u{0B}"
    case "a": return "\u{07}"
    case "0": return "\0"
    case "1"..."9": throw .backreference(at: start)
    case "k", "g": throw .backreference(at: start)
    case "p", "P": throw .unsupported("a Unicode property class \\\(scalar){…}", at: start, instead: "use [a-z] ranges")
    case "x": return try parseHex(start: start)
    case "Z", "G", "K", "R", "X", "Q", "E", "C", "z", "A", "b", "B":
      throw .unsupported("'\\\(scalar)'", at: start)
    default:
      // Any escaped punctuation or symbol is itself; an escaped letter or digit must be known.
      if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        throw .badEscape(String(scalar), at: start)
      }
      return scalar
    }
  }

  private mutating func parseHex(start: Int) throws(RegexSyntaxError) -> Unicode.Scalar {
    var digits = ""
    if current == "{" {
      position += 1
      while let scalar = current, scalar != "}" {
        digits.unicodeScalars.append(scalar)
        position += 1
      }
      guard current == "}" else { throw .badEscape("x{", at: start) }
      position += 1
    } else {
      for _ in 0..<2 {
        guard let scalar = current else { break }
        digits.unicodeScalars.append(scalar)
        position += 1
      }
    }
    guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
    else { throw .badEscape("x" + digits, at: start) }
    return scalar
  }

  // MARK: Classes

  private mutating func parseClass(flags: Flags) throws(RegexSyntaxError) -> RegexCharSet {
    let open = position
    position += 1
    var set = RegexCharSet()
    set.foldCase = flags.foldCase
    if current == "^" {
      set.negated = true
      position += 1
    }
    var first = true
    while let scalar = current, scalar != "]" || first {
      first = false
      if scalar == "[", peek(1) == ":" {
        set.named.append((try parseClassName(), false))
        continue
      }
      let itemStart = position
      guard let low = try parseClassCharacter(into: &set) else { continue }
      if current == "-", let next = peek(1), next != "]" {
        position += 1
        let highStart = position
        guard let high = try parseClassCharacter(into: &set) else { throw .badRange(at: highStart) }
        guard low.value <= high.value else { throw .badRange(at: itemStart) }
        set.ranges.append(low.value...high.value)
      } else {
        set.ranges.append(low.value...low.value)
      }
    }
    guard current == "]" else { throw .missingBracket(at: open) }
    position += 1
    return set
  }

  /// One character of a class; nil when it was a named class (`\d`), added to `set` directly.
  private mutating func parseClassCharacter(into set: inout RegexCharSet) throws(RegexSyntaxError) -> Unicode.Scalar? {
    guard let scalar = current else { return nil }
    position += 1
    guard scalar == "\\" else { return scalar }
    let start = position - 1
    guard let escaped = current else { throw .trailingBackslash(at: start) }
    position += 1
    switch escaped {
    case "d", "D", "w", "W", "s", "S":
      set.named.append(Self.named(escaped))
      return nil
    case "b": return "\u{08}"
    default: return try escapedCharacter(escaped, start: start)
    }
  }

  private mutating func parseClassName() throws(RegexSyntaxError) -> RegexCharSet.Named {
    let start = position
    position += 2
    var name = ""
    while let scalar = current, scalar != ":" {
      name.unicodeScalars.append(scalar)
      position += 1
    }
    guard current == ":", peek(1) == "]" else { throw .badClassName(name, at: start) }
    position += 2
    let names: [String: RegexCharSet.Named] = [
      "alpha": .alpha, "digit": .digit, "alnum": .alnum, "upper": .upper, "lower": .lower, "space": .space,
      "punct": .punct, "xdigit": .xdigit, "word": .word, "cntrl": .cntrl, "print": .print, "graph": .graph,
      "blank": .blank,
    ]
    guard let named = names[name] else { throw .badClassName(name, at: start) }
    return named
  }
}
