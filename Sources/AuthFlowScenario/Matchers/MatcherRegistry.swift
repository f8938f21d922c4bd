/// Every matcher of the language, sorted by name. The parser, the validator, the runtime, the
/// JSON Schema and the docs' table (docs/scenario-language.md) all read this list.
public enum MatcherRegistry {
  public static let kinds: [Matcher.Kind] = [
    .contains,
    .equals,
    .exists,
    .gt,
    .gte,
    .lt,
    .lte,
    .matches,
    .notContains,
    .notEquals,
    .notMatches,
    .notOneOf,
    .notStartsWith,
    .oneOf,
    .startsWith,
    .type,
    .within,
  ]

  private static let byName: [String: Matcher.Kind] = Dictionary(
    kinds.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

  /// The matcher named `name`, if there is one.
  public static func kind(named name: String) -> Matcher.Kind? { byName[name] }

  /// The names, sorted.
  public static var names: [String] { kinds.map(\.rawValue) }

  /// The table of docs/scenario-language.md, one row a matcher, as the docs hold it.
  public static var documentationTable: String {
    let rows = kinds.map { "| \($0.rule.documentedName) | \($0.rule.documentation) |" }
    return (["| matcher | holds when the actual value… |", "|---|---|"] + rows).joined(separator: "\n")
  }
}
