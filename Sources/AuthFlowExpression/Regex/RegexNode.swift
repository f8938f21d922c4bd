/// The syntax tree of a pattern, as the parser reads it and the compiler consumes it.
indirect enum RegexNode: Sendable {
  case empty
  /// One character; `foldCase` under `(?i)`.
  case literal(Unicode.Scalar, foldCase: Bool)
  /// `.`; `dotAll` under `(?s)` (then it matches a newline too).
  case any(dotAll: Bool)
  case set(RegexCharSet)
  case concat([RegexNode])
  case alternate([RegexNode])
  /// `x{min,max}`; max nil for unbounded (`*`, `+`, `{m,}`); `lazy` for `*?`, `+?`, `??`,
  /// `{m,n}?` (the same answer to "does it match", a shorter group in a capture).
  case `repeat`(RegexNode, min: Int, max: Int?, lazy: Bool)
  /// A capturing group, numbered from 1 in the order of its opening parenthesis.
  case capture(RegexNode, index: Int)
  case assertion(RegexAssertion)
}

/// Zero-width conditions on the position.
enum RegexAssertion: Sendable {
  /// `^` (start of text), `$` (end of text), and their `(?m)` line forms.
  case startOfText, endOfText, startOfLine, endOfLine
  /// `\b`, `\B` (ASCII word characters, as RE2).
  case wordBoundary, notWordBoundary
}

/// A character class: ranges and named classes, maybe negated, maybe case-folded.
struct RegexCharSet: Sendable {
  /// Named classes, all ASCII as in RE2.
  enum Named: Sendable {
    case digit, word, space, alpha, alnum, upper, lower, punct, xdigit, cntrl, print, graph, blank

    func contains(_ value: UInt32) -> Bool {
      switch self {
      case .digit: return (48...57).contains(value)
      case .word: return value == 95 || Self.alnum.contains(value)
      case .space: return value == 32 || (9...13).contains(value)
      case .alpha: return (65...90).contains(value) || (97...122).contains(value)
      case .alnum: return Self.alpha.contains(value) || Self.digit.contains(value)
      case .upper: return (65...90).contains(value)
      case .lower: return (97...122).contains(value)
      case .punct:
        return (33...47).contains(value) || (58...64).contains(value) || (91...96).contains(value)
          || (123...126).contains(value)
      case .xdigit: return Self.digit.contains(value) || (65...70).contains(value) || (97...102).contains(value)
      case .cntrl: return value < 32 || value == 127
      case .print: return (32...126).contains(value)
      case .graph: return (33...126).contains(value)
      case .blank: return value == 32 || value == 9
      }
    }
  }

  var ranges: [ClosedRange<UInt32>] = []
  /// Named classes, each maybe negated (`\D` inside a class).
  var named: [(Named, negated: Bool)] = []
  var negated = false
  var foldCase = false

  func contains(_ scalar: Unicode.Scalar) -> Bool {
    var found = containsExactly(scalar.value)
    if !found, foldCase {
      let (lower, upper) = RegexCase.variants(of: scalar)
      found = containsExactly(lower.value) || containsExactly(upper.value)
    }
    return found != negated
  }

  private func containsExactly(_ value: UInt32) -> Bool {
    for range in ranges where range.contains(value) { return true }
    for (name, negated) in named where name.contains(value) != negated { return true }
    return false
  }
}

/// Simple case folding: a scalar's one-scalar lowercase and uppercase forms.
enum RegexCase {
  static func variants(of scalar: Unicode.Scalar) -> (lower: Unicode.Scalar, upper: Unicode.Scalar) {
    if scalar.isASCII {
      let value = scalar.value
      if (65...90).contains(value) { return (Unicode.Scalar(UInt8(value + 32)), scalar) }
      if (97...122).contains(value) { return (scalar, Unicode.Scalar(UInt8(value - 32))) }
      return (scalar, scalar)
    }
    let lower = scalar.properties.lowercaseMapping.unicodeScalars
    let upper = scalar.properties.uppercaseMapping.unicodeScalars
    return (
      lower.count == 1 ? lower.first ?? scalar : scalar,
      upper.count == 1 ? upper.first ?? scalar : scalar
    )
  }

  static func equal(_ lhs: Unicode.Scalar, _ rhs: Unicode.Scalar) -> Bool {
    if lhs == rhs { return true }
    let (lower, upper) = variants(of: lhs)
    return rhs == lower || rhs == upper
  }
}
