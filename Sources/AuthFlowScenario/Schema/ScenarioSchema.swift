public import AuthFlowCore

/// The JSON Schema (draft 2020-12) of scenario files, generated from the action catalog so that
/// the schema editors complete with and the actions the parser accepts cannot drift apart.
public enum ScenarioSchema {
  /// `schemas/scenario.schema.json` for `catalog`, pretty-printed with sorted keys and a final
  /// newline.
  public static func generate(catalog: ActionCatalog) -> String {
    document(catalog: catalog).jsonText(pretty: true) + "\n"
  }

  /// The schema as a value.
  public static func document(catalog: ActionCatalog) -> Value {
    [
      "$schema": .string(JSONSchema.draft),
      "$id": "https://authflow.dev/schemas/scenario.schema.json",
      "title": "authflow scenario",
      "description": "A scenario file: a titled list of steps, each running one action and checking its result.",
      "type": "object",
      "required": ["scenario", "steps"],
      "additionalProperties": false,
      "properties": topLevelProperties,
      "$defs": definitions(catalog: catalog),
    ]
  }

  private static var topLevelProperties: Value {
    [
      "scenario": JSONSchema.described(JSONSchema.type("string"), "The scenario's title."),
      "description": JSONSchema.type("string"),
      "tags": JSONSchema.described(JSONSchema.ref("stringList"), "Tags for --tag and --skip-tag."),
      "requires": JSONSchema.described(
        JSONSchema.ref("stringList"),
        "Capabilities the tenant must have (built-in names, docs/tenants.md, or a tenant's custom_capabilities); other tenants skip the scenario."
      ),
      "tenant": JSONSchema.described(JSONSchema.type("string"), "The tenant profile to run against."),
      "client": JSONSchema.described(JSONSchema.type("string"), "The tenant's client profile to use."),
      "vars": JSONSchema.described(
        ["type": "object", "propertyNames": JSONSchema.ref("name")], "Variables, evaluated in order, read as vars.NAME."
      ),
      "matrix": JSONSchema.described(
        [
          "type": "object", "propertyNames": JSONSchema.ref("name"),
          "additionalProperties": ["type": "array", "minItems": 1],
        ], "Runs the scenario once per combination of values, read as matrix.NAME."),
      "steps": ["type": "array", "minItems": 1, "items": JSONSchema.ref("step")],
      "cleanup": JSONSchema.described(
        ["type": "array", "items": JSONSchema.ref("step")], "Steps that always run last."),
      "timeout": JSONSchema.ref("duration"),
    ]
  }

  private static func definitions(catalog: ActionCatalog) -> Value {
    var actions: [String: Value] = [:]
    for action in catalog.actions { actions[action.name] = action.schema }
    return [
      "expression": [
        "type": "string", "pattern": "\\$\\{\\{.*\\}\\}",
        "description": "A ${{ … }} expression, evaluated when the step runs.",
      ],
      "duration": [
        "anyOf": [
          ["type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]+)?(ms|s|m|h)?\\s*$"],
          ["type": "number", "minimum": 0],
          JSONSchema.ref("expression"),
        ],
        "description": "A duration: 250ms, 90s, 5m, 2h, or a number of seconds.",
      ],
      "name": ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"],
      "stringList": ["anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]],
      "step": step(catalog: catalog),
      "retry": retry,
      "expect": [
        "type": "object", "additionalProperties": JSONSchema.ref("matcher"),
        "description": "Path into the step's result → expected value or matchers.",
      ],
      "matcher": matcher,
      "severity": [
        "enum": JSONSchema.strings(CheckSeverity.allCases.map(\.rawValue)),
        "description":
          "error (the default): a failed check fails the step; warning: reported, the step passes (a SHOULD of a standard).",
      ],
      "actions": .object(actions),
    ]
  }

  private static func step(catalog: ActionCatalog) -> Value {
    var properties: [String: Value] = [
      "id": ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"],
      "name": JSONSchema.type("string"),
      "needs": JSONSchema.described(JSONSchema.ref("stringList"), "Steps to wait for; the previous step by default."),
      "if": JSONSchema.described([:], "A condition; the step is skipped when it is false."),
      "retry": JSONSchema.ref("retry"),
      "timeout": JSONSchema.ref("duration"),
      "expect": JSONSchema.ref("expect"),
      "save": JSONSchema.described(
        ["type": "object", "propertyNames": JSONSchema.ref("name")], "Values to store in vars."),
      "severity": JSONSchema.ref("severity"),
      "client": JSONSchema.described(
        JSONSchema.type("string"), "The client profile this step uses instead of the scenario's 'client'."),
    ]
    for action in catalog.actions {
      properties[action.name] = JSONSchema.ref("actions/\(action.name)")
    }
    var schema: [String: Value] = ["type": "object", "properties": .object(properties)]
    if !catalog.actions.isEmpty {
      schema["additionalProperties"] = false
      schema["oneOf"] = .array(catalog.actions.map { ["required": [.string($0.name)]] })
    }
    return .object(schema)
  }

  private static var retry: Value {
    [
      "type": "object", "additionalProperties": false,
      "properties": [
        "attempts": [
          "type": "integer", "minimum": .int(InputLimits.retryAttempts.lowerBound),
          "maximum": .int(InputLimits.retryAttempts.upperBound),
        ],
        "delay": JSONSchema.ref("duration"),
        "backoff": [
          "type": "number", "minimum": .double(InputLimits.retryBackoff.lowerBound),
          "maximum": .double(InputLimits.retryBackoff.upperBound),
        ],
        "until": JSONSchema.described([:], "Retry until this expression holds."),
      ],
    ]
  }

  private static var matcher: Value {
    var matchers: [String: Value] = ["severity": JSONSchema.ref("severity")]
    for kind in Matcher.Kind.allCases {
      matchers[kind.rawValue] = kind.rule.operand.schema
    }
    return [
      "anyOf": [
        ["not": JSONSchema.type("object")],
        ["type": "object", "minProperties": 1, "additionalProperties": false, "properties": .object(matchers)],
      ],
      "description":
        "A plain value (equality), or matchers that must all hold; compare with an object by 'equals: { … }'.",
    ]
  }
}
