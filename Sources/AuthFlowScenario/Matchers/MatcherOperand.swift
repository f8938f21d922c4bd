import AuthFlowCore

/// What a matcher's operand must be. The parser checks a literal operand against it (an
/// expression is checked when it has been evaluated), and the JSON Schema describes it.
public enum MatcherOperand: Sendable, Hashable {
  /// Any value (`equals`, `contains`).
  case any
  /// A string (`starts_with`).
  case string
  /// A regular expression that compiles (`matches`).
  case regularExpression
  /// `true` or `false` (`exists`).
  case bool
  /// A list of values (`one_of`).
  case list
  /// One of `Matcher.typeNames` (`type`).
  case typeName
  /// A number or a string (`gt`, `lt`, …).
  case numberOrString
  /// `{ of: <value>, seconds: <duration> }` (`within`).
  case tolerance

  /// The operand's JSON Schema.
  var schema: Value {
    switch self {
    case .any: return [:]
    case .string, .regularExpression: return JSONSchema.type("string")
    case .list: return JSONSchema.orExpression(JSONSchema.type("array"))
    case .bool: return JSONSchema.orExpression(JSONSchema.type("boolean"))
    case .typeName: return JSONSchema.orExpression(["enum": JSONSchema.strings(Matcher.typeNames)])
    case .numberOrString: return ["type": ["number", "string"]]
    case .tolerance:
      return [
        "type": "object", "required": ["of", "seconds"], "additionalProperties": false,
        "properties": ["of": [:], "seconds": JSONSchema.ref("duration")],
      ]
    }
  }
}
