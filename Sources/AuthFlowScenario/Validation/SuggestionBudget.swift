import AuthFlowCore

/// "Did you mean" for the first few unknown names of a scenario only: each suggestion compares
/// the name with every step id, so a file with thousands of unknown names would otherwise take
/// time quadratic in its size.
struct SuggestionBudget {
  /// How many suggestions one check makes.
  static let limit = 50
  private var used = 0

  mutating func hint(for word: String, in candidates: [String]) -> String? {
    guard used < Self.limit else { return nil }
    used += 1
    return Suggestion.hint(for: word, in: candidates)
  }
}
