import AuthFlowCore
import AuthFlowExpression
import AuthFlowYAML

extension ParseContext {
  /// Converts a YAML node into a template: strings containing `${{` are parsed as expressions,
  /// and syntax errors in them are reported at their own line and column.
  mutating func template(_ node: YAMLNode) -> Template {
    switch node {
    case .scalar(let scalar):
      return template(scalar)
    case .sequence(let items, let location):
      return .array(items.map { template($0) }, location)
    case .mapping(let pairs, let location):
      let members = keyedPairs(pairs).map { key, pair in
        TemplateMember(key: key, value: template(pair.value))
      }
      return .object(members, location)
    }
  }

  mutating func template(_ scalar: YAMLScalar) -> Template {
    guard case .string(let text) = scalar.value, text.containsTemplateOpening else {
      return .literal(scalar.value, scalar.location)
    }
    switch TemplateString.parse(text) {
    case .success(let parsed?):
      return .expression(parsed, scalar.location(ofOffset: 0))
    case .success(nil):
      return .literal(scalar.value, scalar.location)
    case .failure(let error):
      report(.expression(error, in: scalar))
      return .literal(scalar.value, scalar.location)
    }
  }
}
