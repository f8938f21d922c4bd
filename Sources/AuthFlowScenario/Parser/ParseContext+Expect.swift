import AuthFlowCore
import AuthFlowExpression
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

  /// Checks what can be checked before running: literal operands of the right kind, and regular
  /// expressions that compile.
  private mutating func checkOperand(_ node: YAMLNode, of kind: Matcher.Kind) {
    if node.isExpression { return }
    let value = node.scalar.map(\.value)
    switch kind {
    case .equals, .notEquals, .contains, .notContains:
      return
    case .startsWith:
      if case .string? = value { return }
      report(.invalidMatcherOperand(kind.rawValue, expected: "a string", found: node))
    case .exists:
      if case .bool? = value { return }
      report(.invalidMatcherOperand(kind.rawValue, expected: "true or false", found: node))
    case .matches, .notMatches:
      guard case .string(let pattern)? = value else {
        report(.invalidMatcherOperand(kind.rawValue, expected: "a regular expression", found: node))
        return
      }
      do throws(RegexSyntaxError) {
        _ = try RegexPattern.cached(pattern)
      } catch {
        report(.invalidRegex(pattern, reason: error.description, at: node))
      }
    case .type:
      guard case .string(let name)? = value else {
        report(.invalidMatcherOperand(kind.rawValue, expected: "a type name", found: node))
        return
      }
      if !Matcher.typeNames.contains(name) {
        report(.unknownTypeName(name, at: node, choices: Matcher.typeNames))
      }
    case .oneOf, .notOneOf:
      if case .sequence = node { return }
      report(.invalidMatcherOperand(kind.rawValue, expected: "a list of values", found: node))
    case .gt, .gte, .lt, .lte:
      switch value {
      case .int?, .double?, .string?: return
      default: report(.invalidMatcherOperand(kind.rawValue, expected: "a number or a string", found: node))
      }
    case .within:
      checkWithin(node)
    }
  }

  /// `within: { of: …, seconds: … }`.
  private mutating func checkWithin(_ node: YAMLNode) {
    guard let pairs = mapping(node, for: "within", expected: "a mapping '{ of: …, seconds: … }'") else { return }
    let keys = knownPairs(pairs, allowed: ["of", "seconds"], in: "'within'")
    for required in ["of", "seconds"] where keys[required] == nil {
      report(
        .missingKey(
          required, in: "'within'", at: node.location, hint: "write 'within: { of: <expected>, seconds: <tolerance> }'")
      )
    }
    if let seconds = keys["seconds"]?.value, !seconds.isExpression {
      _ = duration(seconds, for: "seconds", maximum: InputLimits.widestTolerance)
    }
  }
}

extension Matcher {
  /// The names the `type` matcher accepts, as `Value.typeName` spells them; `secret` holds for a
  /// value the runtime masks (a secret or a JWT), whatever is inside it.
  public static let typeNames = ["array", "bool", "int", "jwt", "null", "number", "object", "secret", "string"]
}
