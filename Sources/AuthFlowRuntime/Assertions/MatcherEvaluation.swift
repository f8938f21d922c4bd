import AuthFlowCore
import AuthFlowScenario

/// The interpreter's entry to the matchers, which live one a file in AuthFlowScenario/Matchers
/// (`MatcherRegistry`): nil when `kind` holds for `actual`, or the verb of its failure.
enum MatcherCheck {
  static func check(_ kind: Matcher.Kind, expected: Value, actual: Value?) -> String? {
    kind.failure(expected: expected, actual: actual)
  }
}
