public import AuthFlowCore

/// The catalogue of expression errors: every message the lexer, parser, checker and evaluator emit.
extension ExpressionError {
  // MARK: Syntax

  static func neverClosed(offset: Int) -> ExpressionError {
    ExpressionError("'${{' is never closed — add '}}'", offset: offset, length: 3)
  }

  static func emptyExpression(offset: Int, length: Int) -> ExpressionError {
    ExpressionError(
      "empty expression", offset: offset, length: length, hint: "write an expression between '${{' and '}}'")
  }

  static func unexpected(_ found: String, expected: String, offset: Int, length: Int) -> ExpressionError {
    ExpressionError("unexpected \(found) — expected \(expected)", offset: offset, length: max(1, length))
  }

  static func unexpectedCharacter(_ character: Unicode.Scalar, offset: Int) -> ExpressionError {
    let hint: String? =
      switch character {
      case "=": "use '==' to compare"
      case "&": "use '&&' for 'and'"
      case "|": "use '||' for 'or'"
      case "}": "close the expression with '}}'"
      case "{": "objects cannot be written inside expressions; use json('{…}')"
      default: nil
      }
    return ExpressionError("unexpected character '\(character)'", offset: offset, hint: hint)
  }

  static func unterminatedString(offset: Int, length: Int) -> ExpressionError {
    ExpressionError("unterminated string literal", offset: offset, length: max(1, length))
  }

  static func invalidUnicodeEscape(offset: Int, length: Int) -> ExpressionError {
    ExpressionError(
      "invalid unicode escape in a string literal", offset: offset, length: max(2, length),
      hint: "write 1 to 8 hex digits of a code point, e.g. \\u{e9}")
  }

  static func invalidNumber(_ text: String, offset: Int) -> ExpressionError {
    ExpressionError(
      "invalid number '\(text)'", offset: offset, length: text.unicodeScalars.count,
      hint: "durations are written 250ms, 90s, 5m or 2h")
  }

  static func numberTooLarge(_ text: String, offset: Int) -> ExpressionError {
    ExpressionError("number '\(text)' is too large", offset: offset, length: text.unicodeScalars.count)
  }

  static func tooDeep(offset: Int) -> ExpressionError {
    ExpressionError(
      "the expression is nested more than \(InputLimits.expressionDepth) levels deep", offset: offset,
      hint: "split it with 'vars' or 'set'; parentheses, lists, calls and chained operators each count a level")
  }

  static func tooLong(offset: Int, length: Int) -> ExpressionError {
    ExpressionError(
      "the expression is longer than \(InputLimits.expressionLength) characters", offset: offset, length: 3,
      hint: "split it with 'vars' or 'set'")
  }

  static func notCallable(offset: Int) -> ExpressionError {
    ExpressionError(
      "unexpected '(' — only functions can be called", offset: offset, hint: "call a function by name, e.g. lower(x)")
  }

  // MARK: Names and functions

  static func unknownName(
    _ name: String, offset: Int, roots: some Sequence<String>, hint: String? = nil
  )
    -> ExpressionError
  {
    let suggestion =
      hint ?? Suggestion.hint(for: name, in: roots)
      ?? "expressions start at one of " + roots.sorted().map { "'\($0)'" }.joined(separator: ", ")
    return ExpressionError(
      "unknown name '\(name)'", offset: offset, length: name.unicodeScalars.count, hint: suggestion)
  }

  static func hyphenatedKeyHint(_ chain: String) -> String {
    "'-' subtracts; to read a key that contains '-', write \(chain)"
  }

  static func unknownFunction(_ name: String, offset: Int, hint: String?) -> ExpressionError {
    ExpressionError("unknown function '\(name)'", offset: offset, length: name.unicodeScalars.count, hint: hint)
  }

  static func wrongArity(
    _ name: String, arity: ClosedRange<Int>, given: Int, signature: String, offset: Int
  ) -> ExpressionError {
    ExpressionError(
      "'\(name)' takes \(describe(arity)), but \(given) \(given == 1 ? "was" : "were") given", offset: offset,
      length: name.unicodeScalars.count, hint: "usage: \(signature)")
  }

  private static func describe(_ arity: ClosedRange<Int>) -> String {
    func count(_ number: Int) -> String { number == 1 ? "1 argument" : "\(number) arguments" }
    if arity.upperBound == 0 { return "no arguments" }
    if arity.lowerBound == arity.upperBound { return count(arity.lowerBound) }
    if arity.upperBound == Int.max { return "at least \(count(arity.lowerBound))" }
    if arity.upperBound == arity.lowerBound + 1 { return "\(arity.lowerBound) or \(count(arity.upperBound))" }
    return "\(arity.lowerBound) to \(count(arity.upperBound))"
  }

  // MARK: Evaluation

  static func cannotCompare(
    _ lhs: Value, _ rhs: Value, operator op: BinaryOperator, offset: Int
  )
    -> ExpressionError
  {
    ExpressionError(
      "cannot compare \(lhs.typeName) and \(rhs.typeName) with '\(op.rawValue)'", offset: offset,
      length: op.rawValue.count)
  }

  static func cannotApply(_ op: String, to lhs: Value, and rhs: Value, offset: Int) -> ExpressionError {
    let hint: String? =
      lhs.isNull || rhs.isNull ? "a missing key reads as null; use default(x, fallback) to give it a value" : nil
    return ExpressionError(
      "cannot apply '\(op)' to \(lhs.typeName) and \(rhs.typeName)", offset: offset, length: op.count, hint: hint)
  }

  static func cannotNegate(_ operand: Value, offset: Int) -> ExpressionError {
    ExpressionError("cannot apply '-' to \(operand.typeName)", offset: offset)
  }

  static func integerOverflow(_ op: String, offset: Int) -> ExpressionError {
    ExpressionError("integer overflow in '\(op)'", offset: offset, length: op.count)
  }

  static func invalidIndex(_ key: Value, offset: Int, length: Int) -> ExpressionError {
    ExpressionError(
      "cannot use \(key.typeName) as an index", offset: offset, length: length,
      hint: "index arrays with an int and objects with a string")
  }

  // MARK: Function arguments (located at the call by the evaluator)

  /// `argument 1 of 'lower' must be a string, got int`.
  public static func argumentType(
    function: String, position: Int, expected: String, got value: Value
  )
    -> ExpressionError
  {
    ExpressionError("argument \(position) of '\(function)' must be \(expected), got \(value.typeName)", offset: 0)
  }

  /// A function's own failure, e.g. `'jwt' needs a compact JWS (header.payload.signature)`.
  public static func functionFailed(_ function: String, _ reason: String, hint: String? = nil) -> ExpressionError {
    ExpressionError("'\(function)' \(reason)", offset: 0, hint: hint)
  }

  static func invalidRegex(function: String, detail: String, offset: Int, length: Int) -> ExpressionError {
    ExpressionError(
      "argument 2 of '\(function)' is not a valid regular expression", offset: offset, length: length, hint: detail)
  }
}
