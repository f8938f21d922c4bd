import AuthFlowCore

/// Small builders for JSON Schema documents, as `Value`s (serialized with sorted keys, so the
/// output is deterministic).
enum JSONSchema {
  static let draft = "https://json-schema.org/draft/2020-12/schema"

  static func ref(_ name: String) -> Value { ["$ref": .string("#/$defs/\(name)")] }

  /// `type`, or `type` or a `${{ … }}` string.
  static func orExpression(_ schema: Value) -> Value {
    ["anyOf": [schema, ref("expression")]]
  }

  static func type(_ name: String) -> Value { ["type": .string(name)] }

  static func described(_ schema: Value, _ description: String) -> Value {
    guard !description.isEmpty, case .object(var members) = schema else { return schema }
    members["description"] = .string(description)
    return .object(members)
  }

  static func strings(_ items: [String]) -> Value { .array(items.map { .string($0) }) }
}

extension ParameterType {
  /// The schema of a value of this type; every typed value also accepts an expression.
  var schema: Value {
    switch self {
    case .string, .clockShift: return ["type": ["string", "number"]]
    case .int: return JSONSchema.orExpression(JSONSchema.type("integer"))
    case .number: return JSONSchema.orExpression(JSONSchema.type("number"))
    case .bool: return JSONSchema.orExpression(JSONSchema.type("boolean"))
    case .duration: return JSONSchema.ref("duration")
    case .any: return [:]
    case .object(let parameters?): return JSONSchema.orExpression(ParameterType.objectSchema(parameters, open: false))
    case .object(nil), .map: return JSONSchema.orExpression(JSONSchema.type("object"))
    case .array(let element):
      return JSONSchema.orExpression(["type": "array", "items": element.schema])
    case .oneOf(let choices): return JSONSchema.orExpression(["enum": JSONSchema.strings(choices)])
    case .step: return ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"]
    }
  }

  static func objectSchema(_ parameters: [ParameterSignature], open: Bool) -> Value {
    var properties: [String: Value] = [:]
    for parameter in parameters {
      properties[parameter.name] = JSONSchema.described(parameter.type.schema, parameter.summary)
    }
    var schema: [String: Value] = ["type": "object", "properties": .object(properties)]
    if !open { schema["additionalProperties"] = false }
    let required = parameters.filter(\.required).map(\.name)
    if !required.isEmpty { schema["required"] = JSONSchema.strings(required) }
    return .object(schema)
  }
}

extension ActionSignature {
  /// The schema of the action key's value: its mapping form, its scalar form, an expression, and
  /// nothing at all when no parameter is required.
  var schema: Value {
    var forms: [Value] = [ParameterType.objectSchema(parameters, open: acceptsAnyParameters)]
    if let scalarForm { forms.append(scalarForm.type.schema) }
    forms.append(JSONSchema.ref("expression"))
    if !parameters.contains(where: \.required) { forms.append(JSONSchema.type("null")) }
    return JSONSchema.described(["anyOf": .array(forms)], summary)
  }
}
