import AuthFlowCore
import AuthFlowExpression
import AuthFlowScenario

/// Checks one matcher against the actual value at an `expect` path.
///
/// Returns nil when it holds, or the reason it does not (without the path; the caller adds it).
enum MatcherCheck {
  static func check(_ kind: Matcher.Kind, expected: Value, actual: Value?) -> String? {
    switch kind {
    case .equals:
      guard let actual, actual.matches(expected) else { return "to equal" }
      return nil
    case .notEquals:
      if let actual, actual.matches(expected) { return "not to equal" }
      return nil
    case .exists:
      let wanted = expected.isTruthy
      let present = actual.map { !$0.isNull } ?? false
      if wanted == present { return nil }
      return wanted ? "to exist" : "not to exist"
    case .type:
      // A name computed by an expression is held to the same list the parser checks literals against.
      guard let name = expected.stringValue, Matcher.typeNames.contains(name) else {
        return "to have type (one of \(Matcher.typeNames.joined(separator: ", ")))"
      }
      guard let actual, typeMatches(actual, name) else { return "to have type" }
      return nil
    case .matches, .notMatches:
      let negated = kind == .notMatches
      let verb = negated ? "not to match" : "to match"
      switch match(pattern: expected, actual: actual) {
      case .decided(let matched): return matched == negated ? verb : nil
      case .undecided(let why): return "\(verb) (\(why))"
      }
    case .contains:
      guard let actual, contains(actual, expected) else { return "to contain" }
      return nil
    case .notContains:
      if let actual, contains(actual, expected) { return "not to contain" }
      return nil
    case .startsWith:
      guard let text = actual?.stringValue, let prefix = expected.stringValue, text.hasPrefix(prefix) else {
        return "to start with"
      }
      return nil
    case .oneOf:
      guard let options = expected.arrayValue else { return "to be one of (one_of needs a list)" }
      guard let actual, options.contains(where: { actual.matches($0) }) else { return "to be one of" }
      return nil
    case .notOneOf:
      guard let options = expected.arrayValue else { return "not to be one of (not_one_of needs a list)" }
      if let actual, options.contains(where: { actual.matches($0) }) { return "not to be one of" }
      return nil
    case .gt, .gte, .lt, .lte:
      guard let actual, let order = actual.compare(to: expected) else { return "to be comparable with" }
      let holds: Bool
      switch kind {
      case .gt: holds = order > 0
      case .gte: holds = order >= 0
      case .lt: holds = order < 0
      default: holds = order <= 0
      }
      return holds ? nil : label(kind)
    case .within:
      guard let reference = expected.member("of")?.doubleValue,
        let tolerance = expected.member("seconds").flatMap({
          DurationText.parse($0, maximum: InputLimits.widestTolerance)
        })?.seconds
      else { return "to be within (within needs { of: number, seconds: a duration up to 366 days })" }
      guard let number = actual?.doubleValue, abs(number - reference) <= tolerance else {
        return "to be within \(formatNumber(tolerance))s of"
      }
      return nil
    }
  }

  static func label(_ kind: Matcher.Kind) -> String {
    switch kind {
    case .gt: return "to be greater than"
    case .gte: return "to be at least"
    case .lt: return "to be less than"
    case .lte: return "to be at most"
    default: return kind.rawValue
    }
  }

  /// Whether a regular expression matched, or why that cannot be said (then neither `matches`
  /// nor `not_matches` holds). A value that is not a string (or is absent) matches nothing.
  private enum MatchOutcome {
    case decided(Bool)
    case undecided(String)
  }

  private static func match(pattern: Value, actual: Value?) -> MatchOutcome {
    guard let pattern = pattern.stringValue else { return .undecided("the pattern is not a string") }
    guard let regex = try? RegexPattern.cached(pattern) else {
      return .undecided("the pattern is not a valid regular expression")
    }
    guard let text = actual?.stringValue else { return .decided(false) }
    switch regex.search(text) {
    case .match: return .decided(true)
    case .noMatch: return .decided(false)
    case .textTooLong: return .undecided("the text is longer than \(InputLimits.regexInputLength) characters")
    case .cancelled: return .undecided("the match was stopped: the step timed out or the run was interrupted")
    }
  }

  private static func contains(_ actual: Value, _ expected: Value) -> Bool {
    switch actual.unwrapped {
    case .string(let text): return expected.stringValue.map { text.contains($0) } ?? false
    case .array(let items): return items.contains { $0.matches(expected) }
    case .object(let members): return expected.stringValue.map { members[$0] != nil } ?? false
    case .jwt(let token): return expected.stringValue.map { token.raw.contains($0) } ?? false
    default: return false
    }
  }

  private static func typeMatches(_ actual: Value, _ name: String) -> Bool {
    switch (name, actual.unwrapped) {
    case ("number", .int), ("number", .double), ("int", .int): return true
    case ("string", .string), ("bool", .bool), ("array", .array): return true
    case ("object", .object), ("null", .null), ("jwt", .jwt): return true
    case ("secret", _): return actual.isSecret
    default: return false
    }
  }

  private static func formatNumber(_ number: Double) -> String {
    number.rounded() == number ? String(Int(number)) : String(number)
  }
}
