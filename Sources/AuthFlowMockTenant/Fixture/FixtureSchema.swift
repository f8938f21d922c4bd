import AuthFlowCore
import AuthFlowJOSE

/// One key of a mapping of the fixture: its name and the JSON Schema of its value.
struct FixtureKey: Sendable {
  var name: String
  var schema: Value
}

extension [FixtureKey] {
  /// The names: what the loader accepts in the mapping (anything else is an unknown key).
  var names: [String] { map(\.name) }

  /// The mapping's schema: these properties and no other; `rules` adds conditions across keys.
  func object(required: [String] = [], description: String? = nil, rules: [String: Value] = [:]) -> Value {
    var schema: [String: Value] = rules.merging([
      "type": "object", "additionalProperties": false,
      "properties": .object(Dictionary(uniqueKeysWithValues: map { ($0.name, $0.schema) })),
    ]) { $1 }
    if !required.isEmpty { schema["required"] = .array(required.map(Value.string)) }
    if let description { schema["description"] = .string(description) }
    return .object(schema)
  }
}

/// The keys of every mapping of a tenant fixture, with their types, ranges, choices and defaults:
/// the loader's declarations. `FixtureLoader` accepts exactly these keys, and
/// `schemas/tenant.schema.json` (for editors) is generated from them — `authflow schema tenant`
/// prints it, a test keeps the checked-in copy current. Choices and defaults come from the types
/// the loader fills (`TenantSettings()`, the enums), so the schema cannot drift from them.
public enum FixtureSchema {
  static let top: [FixtureKey] = [
    FixtureKey(name: "tenant", schema: tenant.object()),
    FixtureKey(name: "signing_key", schema: signingKey.object()),
    FixtureKey(name: "clients", schema: ["type": "object", "additionalProperties": ref("client")]),
    FixtureKey(name: "apis", schema: ["type": "array", "items": ref("api")]),
    FixtureKey(
      name: "connections", schema: ["type": "array", "items": connection.object(required: ["name", "strategy"])]),
    FixtureKey(name: "users", schema: ["type": "object", "additionalProperties": ref("user")]),
    FixtureKey(
      name: "organizations", schema: ["type": "array", "items": organization.object(required: ["id", "name"])]),
    FixtureKey(
      name: "claim_rules",
      schema: [
        "type": "array",
        "items": claimRule.object(
          required: ["claim"], rules: ["anyOf": [["required": ["from"]], ["required": ["value"]]]]),
      ]),
  ]

  static let tenant: [FixtureKey] = {
    let defaults = TenantSettings()
    return [
      string("issuer", "Fixed issuer; default is the server's base URL with a trailing slash."),
      boolean("refresh_token_rotation", default: defaults.refreshTokenRotation),
      integer("refresh_token_reuse_leeway", minimum: 0, default: defaults.refreshTokenReuseLeeway),
      integer("refresh_token_lifetime", minimum: 1, default: defaults.refreshTokenLifetime),
      integer("id_token_lifetime", minimum: 1, default: defaults.idTokenLifetime),
      integer("access_token_lifetime", minimum: 1, default: defaults.accessTokenLifetime),
      integer("authorization_code_lifetime", minimum: 1, default: defaults.authorizationCodeLifetime),
      integer("session_lifetime", minimum: 1, default: defaults.sessionLifetime),
      boolean("legacy_scope_claims", default: defaults.legacyScopeClaims),
      boolean("organization_names_in_auth_api", default: defaults.organizationNamesInAuthAPI),
      boolean("bot_detection", default: defaults.botDetection),
      integer("brute_force_limit", minimum: 1, default: defaults.bruteForceLimit),
      integer("rate_limit_per_minute", minimum: 1),
      integer(
        "rate_limit_window", minimum: TenantSettings.rateLimitWindowRange.lowerBound,
        maximum: TenantSettings.rateLimitWindowRange.upperBound, default: defaults.rateLimitWindow),
      strings("allowed_logout_urls"),
      choice("password_policy", PasswordPolicy.self, default: defaults.passwordPolicy.rawValue),
      boolean("signup_enumeration_protection", default: defaults.signupEnumerationProtection),
      boolean(
        "password_dictionary", default: defaults.passwordDictionary,
        "Password Dictionary: refuse common passwords (and password_dictionary_words) with password_dictionary_error."
      ),
      strings(
        "password_dictionary_words", "Extra dictionary words, compared case-insensitively with the whole password."),
      integer(
        "password_history_size", minimum: passwordHistoryRange.lowerBound, maximum: passwordHistoryRange.upperBound,
        default: defaults.passwordHistorySize,
        "Password History: how many of the user's passwords (the current one included) a new one may not repeat (PasswordHistoryError); 0 is off."
      ),
      boolean(
        "password_no_personal_info", default: defaults.passwordNoPersonalInfo,
        "Personal Data: refuse a password containing the user's name, username, nickname or the local part of the email (parts of 3+ characters, case-insensitive) with password_no_user_info_error."
      ),
      boolean(
        "dynamic_client_registration", default: defaults.dynamicClientRegistration,
        "OIDC Dynamic Application Registration: /oidc/register creates clients (off by default, as on Auth0)."),
      key(
        "id_token_signing_alg",
        [
          "enum": .array(JWSAlgorithm.signing.map { .string($0.rawValue) }),
          "default": .string(defaults.idTokenSigningAlgorithm.rawValue),
        ],
        "The algorithm ID tokens are signed with (RS256, as Auth0): with an asymmetric one the tenant's key is of that kind and signs JWT access tokens too; HS256/384/512 key each ID token with its client's secret."
      ),
      choice(
        "updated_at_format", UpdatedAtFormat.self, default: defaults.updatedAtFormat.rawValue,
        "How updated_at is written in ID tokens and /userinfo: iso8601 as Auth0 sends it, or epoch, the number of seconds OIDC Core §5.1 fixes."
      ),
      boolean(
        "id_token_kid", default: defaults.idTokenKeyID,
        "Whether ID tokens name their key (kid) in the header; false plays a one-key provider that leaves it out."),
      FixtureKey(
        name: "login_page",
        schema: loginPage.object(
          description:
            "Opt-in: the login page /authorize shows instead of Universal Login, for tests of logins a tenant profile describes (docs/tenants.md). single_field: /u/identify, one field named `field` (default sub) that names the user, no password; app: /login.html, a JavaScript app that signs in with POST /api/auth/ (JSON) and continues with /authorize?…&continue=."
        )),
    ]
  }()

  /// The client types that are confidential: the loader requires their `client_secret`.
  static let confidentialKinds: [ClientConfig.Kind] = [.regular, .m2m]

  /// `password_history_size`: how many passwords a user's history may hold.
  static let passwordHistoryRange = 0...24

  static let loginPage: [FixtureKey] = [
    FixtureKey(
      name: "style",
      schema: ["enum": .array(LoginPageStyle.names.map(Value.string)), "default": .string(LoginPageStyle.names[0])]),
    FixtureKey(name: "field", schema: ["type": "string", "pattern": "^[A-Za-z0-9_-]+$", "default": "sub"]),
  ]

  static let signingKey: [FixtureKey] = [string("pem"), string("kid")]

  static let client: [FixtureKey] = [
    string("client_id"), string("client_secret"), choice("type", ClientConfig.Kind.self), string("name"),
    strings("callbacks"), strings("allowed_logout_urls"), strings("grant_types"),
    FixtureKey(
      name: "refresh_token_policies",
      schema: ["type": "array", "items": refreshTokenPolicy.object(required: ["audience"])]),
    FixtureKey(name: "api_grants", schema: ["type": "object", "additionalProperties": stringList]),
    boolean("legacy_scope_claims", "Overrides the tenant's legacy_scope_claims for this client."),
    choice(
      "organization_usage", OrganizationUsage.self,
      "Whether /authorize takes `organization` (Auth0's organization_usage). The mock defaults to allow."),
    choice(
      "organization_require_behavior", OrganizationRequireBehavior.self,
      "With organization_usage require and no `organization`: no_prompt answers invalid_request, pre_login_prompt shows the organization prompt page, post_login_prompt lets the user pick one of their organizations after logging in (default no_prompt)."
    ),
    string("initiate_login_uri", "The Application Login URI: the route organization invitation links open."),
  ]

  static let refreshTokenPolicy: [FixtureKey] = [string("audience"), strings("scope")]

  static let api: [FixtureKey] = [
    choice("kind", APIConfig.Kind.self, default: APIConfig.Kind.custom.rawValue), string("identifier"),
    string("name"), strings("scopes"), boolean("allow_offline_access", default: true),
  ]

  static let connection: [FixtureKey] = [
    string("name"), choice("strategy", ConnectionConfig.Strategy.self), strings("enabled_clients"),
    FixtureKey(
      name: "subject_tokens",
      schema: [
        "type": "array", "items": subjectToken.object(required: ["token", "user_id"]),
        "description":
          "Native social token exchange (apple, facebook): the subject tokens the simulated provider accepts, and the provider user each stands for.",
      ]),
    FixtureKey(
      name: "accounts",
      schema: [
        "type": "array", "items": socialAccount.object(required: ["user_id", "login"]),
        "description":
          "A simulated web social provider (github): the accounts its consent page offers; /authorize?connection=<name> goes through that page.",
      ]),
  ]

  static let subjectToken: [FixtureKey] = [string("token"), string("user_id"), string("email"), string("name")]

  static let socialAccount: [FixtureKey] = [
    string("user_id"), string("login"), string("email"), string("name"), string("picture"),
  ]

  static let user: [FixtureKey] = [
    string("user_id"), string("connection"), string("email"), boolean("email_verified"), string("password"),
    string("username"), string("phone_number"), boolean("phone_verified"), string("name"), string("nickname"),
    string("picture"),
    string("given_name"), string("family_name"), FixtureKey(name: "user_metadata", schema: ["type": "object"]),
    FixtureKey(name: "app_metadata", schema: ["type": "object"]), boolean("blocked"),
    FixtureKey(name: "mfa", schema: ["type": "array", "items": mfaEnrolment.object(required: ["type", "secret"])]),
    integer("updated_at"),
  ]

  static let mfaEnrolment: [FixtureKey] = [choice("type", MFAEnrollment.Kind.self), string("secret")]

  static let organization: [FixtureKey] = [
    FixtureKey(name: "id", schema: ["type": "string", "pattern": "^org_"]), string("name"), string("display_name"),
    FixtureKey(name: "members", schema: ["type": "array", "items": ["type": "string"]]), strings("connections"),
  ]

  static let claimRule: [FixtureKey] = [
    string("claim"), string("from"), FixtureKey(name: "value", schema: [:]),
    FixtureKey(
      name: "tokens",
      schema: ["type": "array", "items": ["enum": .array(ClaimRule.Target.allCases.map { .string($0.rawValue) })]]),
  ]

  /// The schema document, pretty-printed with sorted keys and a final newline.
  public static func generate() -> String {
    document.jsonText(pretty: true) + "\n"
  }

  static var document: Value {
    var schema: [String: Value] = [
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://authflow.dev/schemas/tenant.schema.json",
      "title": "authflow mock tenant fixture",
    ]
    if case .object(let members) = top.object() { schema.merge(members) { $1 } }
    schema["$defs"] = [
      "client": client.object(
        required: ["client_id", "type"],
        rules: [
          "if": ["properties": ["type": ["enum": .array(confidentialKinds.map { .string($0.rawValue) })]]],
          "then": ["required": ["client_secret"]],
        ]),
      "api": api.object(), "user": user.object(),
    ]
    return .object(schema)
  }

  // MARK: Builders

  /// A list of strings, or one string of space-separated items (the loader reads both).
  static let stringList: Value = ["oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]]

  static func ref(_ name: String) -> Value { ["$ref": .string("#/$defs/\(name)")] }

  static func string(_ name: String, _ description: String? = nil) -> FixtureKey {
    key(name, ["type": "string"], description)
  }

  static func strings(_ name: String, _ description: String? = nil) -> FixtureKey {
    key(name, stringList, description)
  }

  static func boolean(_ name: String, default value: Bool? = nil, _ description: String? = nil) -> FixtureKey {
    var schema: [String: Value] = ["type": "boolean"]
    if let value { schema["default"] = .bool(value) }
    return key(name, .object(schema), description)
  }

  static func integer(
    _ name: String, minimum: Int? = nil, maximum: Int? = nil, default value: Int? = nil, _ description: String? = nil
  ) -> FixtureKey {
    var schema: [String: Value] = ["type": "integer"]
    if let minimum { schema["minimum"] = .int(minimum) }
    if let maximum { schema["maximum"] = .int(maximum) }
    if let value { schema["default"] = .int(value) }
    return key(name, .object(schema), description)
  }

  static func choice<Choice: RawRepresentable & CaseIterable>(
    _ name: String, _ type: Choice.Type, default value: String? = nil, _ description: String? = nil
  ) -> FixtureKey where Choice.RawValue == String {
    var schema: [String: Value] = ["enum": .array(type.allCases.map { .string($0.rawValue) })]
    if let value { schema["default"] = .string(value) }
    return key(name, .object(schema), description)
  }

  static func key(_ name: String, _ schema: Value, _ description: String?) -> FixtureKey {
    guard let description, case .object(var members) = schema else { return FixtureKey(name: name, schema: schema) }
    members["description"] = .string(description)
    return FixtureKey(name: name, schema: .object(members))
  }
}
