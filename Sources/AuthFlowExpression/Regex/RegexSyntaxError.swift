import AuthFlowCore

/// A pattern the regex engine does not accept: where (in unicode scalars from the pattern's
/// start) and why. Unsupported constructs are named, so a user knows what to write instead.
public struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in a user's words.
  public var message: String
  /// The scalar offset in the pattern.
  public var offset: Int

  init(_ message: String, at offset: Int) {
    self.message = message
    self.offset = offset
  }

  public var description: String { "\(message) (at offset \(offset))" }
}

extension RegexSyntaxError {
  static func unsupported(_ construct: String, at offset: Int, instead: String? = nil) -> RegexSyntaxError {
    RegexSyntaxError(
      "\(construct) is not supported (authflow's regular expressions run in linear time)"
        + (instead.map { "; \($0)" } ?? ""), at: offset)
  }

  static func backreference(at offset: Int) -> RegexSyntaxError {
    unsupported("a backreference", at: offset)
  }

  static func lookaround(_ kind: String, at offset: Int) -> RegexSyntaxError {
    unsupported(kind, at: offset)
  }

  static func unbalancedParenthesis(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("unbalanced parenthesis", at: offset)
  }

  static func missingParenthesis(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("missing ')'", at: offset)
  }

  static func missingBracket(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("missing ']' to close the character class", at: offset)
  }

  static func nothingToRepeat(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("nothing to repeat before this quantifier", at: offset)
  }

  static func badRepetition(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError(
      "invalid counted repetition: write {m}, {m,} or {m,n} with m ≤ n ≤ \(InputLimits.regexRepetition)", at: offset)
  }

  static func badRange(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("invalid character range: the first character is after the last", at: offset)
  }

  static func badEscape(_ escape: String, at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("unknown escape '\\\(escape)'", at: offset)
  }

  static func trailingBackslash(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("the pattern ends with a lone '\\'", at: offset)
  }

  static func badFlag(_ flag: Character, at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("unknown flag '\(flag)' (the flags are i, m and s)", at: offset)
  }

  static func badClassName(_ name: String, at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("unknown character class '[:\(name):]'", at: offset)
  }

  static func tooLong(_ length: Int) -> RegexSyntaxError {
    RegexSyntaxError(
      "the pattern is \(length) characters, more than the limit of \(InputLimits.regexPatternLength)", at: 0)
  }

  static func tooLarge() -> RegexSyntaxError {
    RegexSyntaxError(
      "the pattern is too large once its counted repetitions are expanded (more than \(RegexProgram.limit) "
        + "instructions)", at: 0)
  }

  static func tooDeep(at offset: Int) -> RegexSyntaxError {
    RegexSyntaxError("groups are nested more than \(RegexParser.depthLimit) deep", at: offset)
  }
}
