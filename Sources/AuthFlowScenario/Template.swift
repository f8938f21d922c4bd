public import AuthFlowCore
public import AuthFlowExpression
public import AuthFlowYAML

/// A value tree from YAML whose strings may carry `${{ … }}` expressions. Every node is located,
/// so evaluation errors point back at the YAML.
public indirect enum Template: Sendable {
  /// A literal scalar with its YAML type (string, int, float, bool, null).
  case literal(Value, SourceLocation)
  /// A string containing at least one expression. A string that is exactly one expression keeps
  /// the expression's type; otherwise the parts interpolate into a string.
  ///
  /// The location is where the string's text starts (after an opening quote), so an offset inside
  /// the expression is at `location.advanced(by: offset)` (block scalars: the scalar's location).
  case expression(TemplateString, SourceLocation)
  case array([Template], SourceLocation)
  case object([TemplateMember], SourceLocation)

  public var location: SourceLocation {
    switch self {
    case .literal(_, let location), .expression(_, let location), .array(_, let location),
      .object(_, let location):
      return location
    }
  }

  /// The members when this is an object.
  public var members: [TemplateMember]? {
    if case .object(let members, _) = self { return members }
    return nil
  }

  /// The member named `key`, when this is an object.
  public func member(_ key: String) -> Template? {
    members?.first { $0.key.value == key }?.value
  }

  /// The literal value, when the template holds no expression anywhere.
  public var literalValue: Value? {
    switch self {
    case .literal(let value, _): return value
    case .expression: return nil
    case .array(let items, _):
      var values: [Value] = []
      for item in items {
        guard let value = item.literalValue else { return nil }
        values.append(value)
      }
      return .array(values)
    case .object(let members, _):
      var values: [String: Value] = [:]
      for member in members {
        guard let value = member.value.literalValue else { return nil }
        values[member.key.value] = value
      }
      return .object(values)
    }
  }
}

/// `key: value` inside an object template; keys keep their order and location.
public struct TemplateMember: Sendable {
  public var key: Located<String>
  public var value: Template

  public init(key: Located<String>, value: Template) {
    self.key = key
    self.value = value
  }
}
