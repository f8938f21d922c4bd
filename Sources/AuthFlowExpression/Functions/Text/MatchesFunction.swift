import AuthFlowCore

/// `matches(text, regex)`: a regular-expression search.
struct MatchesFunction: ExpressionFunction {
  static let name = "matches"
  static let arity = 2...2
  static let signature = "matches(text, regex)"
  static let summary =
    "Whether the regular expression matches somewhere in the string (anchor it with ^ and $); "
    + "linear-time, RE2's dialect."

  static let textTooLong = "got a text longer than \(InputLimits.regexInputLength) characters"
  static let cancelled = "was stopped before it finished (the step timed out or the run was interrupted)"
  static let examples = [
    FunctionExample(#"matches('auth0|64a1f', '^auth0\|[0-9a-f]+$')"#, true),
    FunctionExample("matches('Bearer', 'bearer')", false),
    FunctionExample("matches('Bearer', '(?i)bearer')", true),
  ]

  /// A literal pattern is compiled here, so a bad one is reported by `authflow validate` (and the
  /// compiled regex is cached for the run).
  static func check(arguments: [Expr]) -> [ExpressionError] {
    guard arguments.count == 2, case .literal(.string(let pattern), let offset) = arguments[1] else { return [] }
    do throws(RegexSyntaxError) {
      _ = try RegexCache.pattern(pattern)
      return []
    } catch {
      return [
        .invalidRegex(
          function: name, detail: error.description, offset: offset, length: pattern.unicodeScalars.count + 2)
      ]
    }
  }

  func call(_ arguments: [Value], context: EvaluationContext) throws(ExpressionError) -> Value {
    let text = try Self.text(arguments, 0)
    let pattern = try Self.text(arguments, 1)
    let compiled: RegexPattern
    do throws(RegexSyntaxError) {
      compiled = try RegexCache.pattern(pattern)
    } catch {
      throw .functionFailed(
        Self.name, "got an invalid regular expression", hint: arguments[1].isSecret ? nil : error.description)
    }
    switch compiled.search(text) {
    case .match: return .bool(true)
    case .noMatch: return .bool(false)
    case .textTooLong: throw .functionFailed(Self.name, MatchesFunction.textTooLong)
    case .cancelled: throw .functionFailed(Self.name, MatchesFunction.cancelled)
    }
  }
}
