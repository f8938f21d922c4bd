import AuthFlowCore
import AuthFlowScenario

/// The interpreter's entry to the matchers, which live one a file in AuthFlowScenario/Matchers
/// (`MatcherRegistry`): nil when `kind` holds for `actual`, or how its failure reads.
enum MatcherCheck {
  static func check(_ kind: Matcher.Kind, expected: Value, actual: Value?) -> MatcherFailure? {
    kind.failure(expected: expected, actual: actual)
  }
}
