import AuthFlowCore
import AuthFlowExpression
import AuthFlowYAML

extension ParseContext {
  /// Checks what can be checked of a matcher's operand before running: a literal of the right
  /// kind, a regular expression that compiles, a known type name.
  mutating func checkOperand(_ node: YAMLNode, of kind: Matcher.Kind) {
    if node.isExpression { return }
    let value = node.scalar.map(\.value)
    let name = kind.rawValue
    switch kind.rule.operand {
    case .any:
      return
    case .string:
      if case .string? = value { return }
      report(.invalidMatcherOperand(name, expected: "a string", found: node))
    case .bool:
      if case .bool? = value { return }
      report(.invalidMatcherOperand(name, expected: "true or false", found: node))
    case .regularExpression:
      guard case .string(let pattern)? = value else {
        report(.invalidMatcherOperand(name, expected: "a regular expression", found: node))
        return
      }
      do throws(RegexSyntaxError) {
        _ = try RegexPattern.cached(pattern)
      } catch {
        report(.invalidRegex(pattern, reason: error.description, at: node))
      }
    case .typeName:
      guard case .string(let type)? = value else {
        report(.invalidMatcherOperand(name, expected: "a type name", found: node))
        return
      }
      if !Matcher.typeNames.contains(type) {
        report(.unknownTypeName(type, at: node, choices: Matcher.typeNames))
      }
    case .list:
      if case .sequence = node { return }
      report(.invalidMatcherOperand(name, expected: "a list of values", found: node))
    case .numberOrString:
      switch value {
      case .int?, .double?, .string?: return
      default: report(.invalidMatcherOperand(name, expected: "a number or a string", found: node))
      }
    case .tolerance:
      checkTolerance(node, of: name)
    }
  }

  /// `within: { of: …, seconds: … }`.
  private mutating func checkTolerance(_ node: YAMLNode, of name: String) {
    guard let pairs = mapping(node, for: name, expected: "a mapping '{ of: …, seconds: … }'") else { return }
    let keys = knownPairs(pairs, allowed: ["of", "seconds"], in: "'\(name)'")
    for required in ["of", "seconds"] where keys[required] == nil {
      report(
        .missingKey(
          required, in: "'\(name)'", at: node.location,
          hint: "write '\(name): { of: <expected>, seconds: <tolerance> }'"
        )
      )
    }
    if let seconds = keys["seconds"]?.value, !seconds.isExpression {
      _ = duration(seconds, for: "seconds", maximum: InputLimits.widestTolerance)
    }
  }
}
