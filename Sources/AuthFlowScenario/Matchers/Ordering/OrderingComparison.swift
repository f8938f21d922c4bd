import AuthFlowCore

/// What `gt`, `gte`, `lt` and `lte` share: the comparison (numbers by value, strings by their
/// characters in order) and the failure when the two cannot be compared.
enum OrderingComparison {
  /// Nil when `holds` accepts the order of `actual` against `expected` (-1, 0 or 1); otherwise
  /// `verb`, or "to be comparable with" when one is not a number or they are not both strings.
  static func failure(
    _ verb: String, expected: Value, actual: Value?, holds: (Int) -> Bool
  ) -> MatcherFailure? {
    guard let actual, let order = actual.compare(to: expected) else { return "to be comparable with" }
    return holds(order) ? nil : MatcherFailure(verb)
  }

  static let documentationNote = "compared as for `gt`"
}
