import AuthFlowCore
import AuthFlowYAML

extension ParseContext {
  /// `expect:` — path → matcher(s).
  mutating func expectations(_ node: YAMLNode) -> [Expectation] {
    guard let pairs = mapping(node, for: "expect") else { return [] }
    var expectations: [Expectation] = []
    for (path, pair) in keyedPairs(pairs) {
      if case .failure(let problem) = ExpectPath.parse(path.value) {
        report(.invalidPath(path.value, reason: problem.reason, at: path.location))
      }
      let (matchers, severity) = matchersAndSeverity(pair.value)
      expectations.append(Expectation(path: path, matchers: matchers, severity: severity))
    }
    return expectations
  }

  /// The matchers of one `expect` entry and its `severity:`, when the mapping of matchers has one.
  mutating func matchersAndSeverity(_ node: YAMLNode) -> ([Matcher], Located<CheckSeverity>?) {
    guard case .mapping(let pairs, let location) = node,
      let index = pairs.firstIndex(where: { $0.key.scalar?.text == "severity" })
    else { return (matchers(node), nil) }
    let others = pairs.enumerated().filter { $0.offset != index }.map(\.element)
    if others.isEmpty, let key = pairs[index].key.scalar {
      report(.severityWithoutMatcher(at: Located(key.text, at: key.location)))
      return ([], nil)
    }
    let severity = self.severity(pairs[index].value)
    return (matchers(.mapping(others, location)), severity)
  }

  /// `severity: error | warning`.
  mutating func severity(_ node: YAMLNode) -> Located<CheckSeverity>? {
    guard let text = string(node, for: "severity") else { return nil }
    guard let severity = CheckSeverity(rawValue: text.value) else {
      report(.invalidSeverity(text))
      return nil
    }
    return Located(severity, at: text.location)
  }

  /// A plain value (a scalar or a list) is one `equals`; a mapping is a list of matchers that must
  /// all hold. Every key of that mapping must be a matcher name: an object to compare with is
  /// written `equals: { … }`, so a misspelt or unknown matcher is an error, never an equality check.
  mutating func matchers(_ node: YAMLNode) -> [Matcher] {
    guard case .mapping(let pairs, _) = node else {
      return [Matcher(kind: .equals, operand: template(node), location: node.location)]
    }
    if pairs.isEmpty {
      report(.emptyMatchers(at: node))
      return []
    }
    var matchers: [Matcher] = []
    for (key, pair) in keyedPairs(pairs) {
      guard let kind = Matcher.Kind(rawValue: key.value) else {
        report(.unknownMatcher(key.value, at: key.location))
        continue
      }
      checkOperand(pair.value, of: kind)
      matchers.append(Matcher(kind: kind, operand: template(pair.value), location: key.location))
    }
    return matchers
  }
}
