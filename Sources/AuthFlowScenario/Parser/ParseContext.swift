import AuthFlowCore
import AuthFlowYAML

/// The state one parse carries: the file, the diagnostics found so far, and the action catalog.
///
/// Readers never stop at a problem: they report it and return nil (or a best-effort value) so the
/// caller carries on and every problem in the file is reported.
struct ParseContext {
  var file: String
  var catalog: ActionCatalog?
  var diagnostics: [Diagnostic] = []

  mutating func report(_ diagnostic: Diagnostic) {
    diagnostics.append(diagnostic)
  }

  /// The pairs of a mapping, or nil (reported) when `node` is something else.
  mutating func mapping(_ node: YAMLNode, for key: String?, expected: String = "a mapping") -> [YAMLPair]? {
    if case .mapping(let pairs, _) = node { return pairs }
    report(.wrongType(expected: expected, found: node, for: key))
    return nil
  }

  /// The pairs whose keys are plain scalars, each with its key text; reports other keys.
  mutating func keyedPairs(_ pairs: [YAMLPair]) -> [(key: Located<String>, pair: YAMLPair)] {
    var result: [(key: Located<String>, pair: YAMLPair)] = []
    for pair in pairs {
      guard let scalar = pair.key.scalar else {
        report(.nonScalarKey(at: pair.key.location))
        continue
      }
      result.append((Located(scalar.text, at: scalar.location), pair))
    }
    return result
  }

  /// Reports the keys not in `allowed`, each with a "did you mean", and returns the known ones.
  mutating func knownPairs(
    _ pairs: [YAMLPair], allowed: [String], in context: String
  ) -> [String: YAMLPair] {
    var known: [String: YAMLPair] = [:]
    for (key, pair) in keyedPairs(pairs) {
      if allowed.contains(key.value) {
        known[key.value] = pair
      } else {
        report(
          .unknownKey(
            key.value, in: context, at: key.location, hint: Suggestion.hint(for: key.value, in: allowed)))
      }
    }
    return known
  }

  /// A scalar's text; reports lists and mappings (and null, unless `allowNull`).
  mutating func string(_ node: YAMLNode, for key: String?) -> Located<String>? {
    guard let scalar = node.scalar, !node.isNull else {
      report(.wrongType(expected: "a string", found: node, for: key))
      return nil
    }
    return Located(scalar.text, at: scalar.location)
  }

  /// A list of strings; a single string is read as a one-item list (as GitHub Actions does).
  mutating func stringList(_ node: YAMLNode, for key: String) -> [Located<String>]? {
    switch node {
    case .scalar(let scalar) where !node.isNull:
      return [Located(scalar.text, at: scalar.location)]
    case .sequence(let items, _):
      var strings: [Located<String>] = []
      for item in items {
        if let scalar = item.scalar, !item.isNull {
          strings.append(Located(scalar.text, at: scalar.location))
        } else {
          report(.wrongType(expected: "a string", found: item, for: "an item of '\(key)'"))
        }
      }
      return strings
    default:
      report(.wrongType(expected: "a list of strings", found: node, for: key))
      return nil
    }
  }

  /// A duration (`90s`, `5m`, `2h`, `250ms`, or a number of seconds).
  /// Reports values that are not durations, and durations longer than `maximum`.
  mutating func duration(
    _ node: YAMLNode, for key: String, maximum: Duration = InputLimits.longestDuration
  ) -> Located<Duration>? {
    guard let scalar = node.scalar, !node.isNull else {
      report(.wrongType(expected: "a duration such as 30s, 5m or 2h", found: node, for: key))
      return nil
    }
    switch DurationText.read(scalar.value, maximum: maximum) {
    case .duration(let duration):
      return Located(duration, at: scalar.location)
    case .tooLong:
      report(.durationTooLong(scalar.text, for: key, maximum: maximum, at: node))
    case .invalid:
      report(.invalidDuration(scalar.text, for: key, at: scalar.location, length: node.underlineLength))
    }
    return nil
  }
}
