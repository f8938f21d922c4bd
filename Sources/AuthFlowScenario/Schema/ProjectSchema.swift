public import AuthFlowCore

/// The JSON Schema (draft 2020-12) of `authflow.yaml`, checked in as `schemas/authflow.schema.json`.
public enum ProjectSchema {
  /// The schema, pretty-printed with sorted keys and a final newline.
  public static func generate() -> String {
    document.jsonText(pretty: true) + "\n"
  }

  /// The schema as a value.
  public static var document: Value {
    let templatedString = JSONSchema.type("string")
    let profiles: Value = ["type": "object", "additionalProperties": JSONSchema.type("object")]
    let tenant: Value = [
      "type": "object", "required": ["kind"], "additionalProperties": false,
      "properties": [
        "kind": ["enum": JSONSchema.strings(TenantProfile.Kind.allCases.map(\.rawValue))],
        "fixture": JSONSchema.described(templatedString, "mock: the fixture file, relative to authflow.yaml."),
        "domain": JSONSchema.described(templatedString, "auth0: the tenant's domain."),
        "issuer": JSONSchema.described(templatedString, "oidc: the issuer URL."),
        "clients": JSONSchema.described(
          [
            "type": "object",
            "additionalProperties": [
              "type": "object",
              "properties": [
                "client_id": templatedString, "client_secret": templatedString, "redirect_uri": templatedString,
              ],
            ],
          ], "Client profiles by name."),
        "users": JSONSchema.described(profiles, "User profiles by name."),
        "capabilities": JSONSchema.described(
          [
            "type": "array",
            "items": [
              "anyOf": [
                ["enum": JSONSchema.strings(CapabilityVocabulary.builtIn.map(\.name))], JSONSchema.type("string"),
              ]
            ],
          ],
          "What the tenant can do beyond what is discovered: built-in capability names (docs/tenants.md) or custom_capabilities of a tenant."
        ),
        "custom_capabilities": JSONSchema.described(
          ["type": "array", "items": JSONSchema.type("string")],
          "Capability names of this project's own, outside the built-in vocabulary; this tenant has them, and every scenario may require them."
        ),
        "forms": JSONSchema.described(
          ["type": "object", "additionalProperties": JSONSchema.type("string")],
          "Universal Login form field names that differ from the mock's."),
        "password_grant_returns_id_token": JSONSchema.type("boolean"),
        "browser": JSONSchema.described(
          ["enum": JSONSchema.strings(BrowserEngine.allCases.map(\.rawValue))],
          "The browser that drives web_auth's login pages: html (built in, the default) or chromium (headless, over the DevTools protocol; docs/browser.md)."
        ),
        "error_statuses": JSONSchema.described(
          ["type": "object", "additionalProperties": ["type": ["integer", "string"]]],
          "HTTP statuses for error codes, where they differ."),
        "settings": JSONSchema.described(JSONSchema.type("object"), "Other provider-specific settings."),
      ],
      "allOf": [
        ["if": ["properties": ["kind": ["const": "auth0"]]], "then": ["required": ["domain"]]],
        ["if": ["properties": ["kind": ["const": "oidc"]]], "then": ["required": ["issuer"]]],
      ],
    ]
    return [
      "$schema": .string(JSONSchema.draft),
      "$id": "https://authflow.dev/schemas/authflow.schema.json",
      "title": "authflow project",
      "description": "authflow.yaml: the tenants scenarios run against.",
      "type": "object", "additionalProperties": false,
      "properties": [
        "default_tenant": JSONSchema.type("string"),
        "tenants": ["type": "object", "additionalProperties": tenant],
      ],
    ]
  }
}
