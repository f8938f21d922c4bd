import AuthFlowCore

/// What `gt`, `gte`, `lt` and `lte` share: the comparison (numbers by value, strings by their
/// characters in order) and the failure when the two cannot be compared.
enum OrderingComparison {
  /// Nil when `holds` accepts the order of `actual` against `expected` (-1, 0 or 1); otherwise
  /// the matcher's own `verb` ("to be greater than"), noting when the two cannot be compared.
  static func failure(
    _ verb: String, expected: Value, actual: Value?, holds: (Int) -> Bool
  ) -> MatcherFailure? {
    guard let actual else { return MatcherFailure(verb) }
    guard let order = actual.compare(to: expected) else { return MatcherFailure(verb, note: incomparable) }
    return holds(order) ? nil : MatcherFailure(verb)
  }

  /// Why two values have no order.
  static let incomparable = "only two numbers or two strings can be compared"

  static let documentationNote = "compared as for `gt`"
}
