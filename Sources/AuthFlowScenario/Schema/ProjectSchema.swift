public import AuthFlowCore

/// The JSON Schema (draft 2020-12) of `authflow.yaml`, checked in as `schemas/authflow.schema.json`.
public enum ProjectSchema {
  /// The schema, pretty-printed with sorted keys and a final newline.
  public static func generate() -> String {
    document.jsonText(pretty: true) + "\n"
  }

  /// `monitor:` (docs/monitor.md).
  static var monitor: Value {
    let duration: Value = [
      "anyOf": [
        ["type": "string", "pattern": "^\\s*[0-9]+(\\.[0-9]+)?(ms|s|m|h)?\\s*$"], ["type": "number", "minimum": 1],
      ]
    ]
    return [
      "type": "object", "additionalProperties": false,
      "properties": [
        "interval": JSONSchema.described(
          duration, "Between two starts of a scenario on a tenant, 1s–24h (default 5m)."),
        "jitter": JSONSchema.described(
          ["type": ["string", "integer"], "pattern": "^[0-9]+%?$"],
          "How far a start may move, in percent of the interval, 0–50 (default 10%)."),
        "concurrency": JSONSchema.described(
          [
            "type": "integer", "minimum": .int(InputLimits.monitorConcurrency.lowerBound),
            "maximum": .int(InputLimits.monitorConcurrency.upperBound),
          ], "Scenarios run at once (default 2)."),
        "schedules": JSONSchema.described(
          [
            "type": "array", "maxItems": .int(InputLimits.monitorSchedules),
            "items": [
              "type": "object", "additionalProperties": false, "required": ["interval"],
              "properties": [
                "tag": JSONSchema.type("string"), "scenario": JSONSchema.type("string"), "interval": duration,
              ],
              "oneOf": [["required": ["tag"]], ["required": ["scenario"]]],
            ],
          ], "Intervals by tag or by scenario name; the first that matches a scenario wins."),
      ],
    ]
  }

  /// `inbox:` of a tenant (docs/messages.md).
  static var inbox: Value {
    let text = JSONSchema.type("string")
    let url: Value = ["type": "string", "minLength": 1]
    func urlOr(_ members: [String: Value], _ description: String) -> Value {
      JSONSchema.described(
        [
          "oneOf": [
            url,
            [
              "type": "object", "required": ["url"], "additionalProperties": false,
              "properties": .object(members.merging(["url": url]) { first, _ in first }),
            ],
          ]
        ], description)
    }
    let smtp: Value = [
      "type": "object", "required": ["listen"], "additionalProperties": false,
      "properties": [
        "listen": JSONSchema.described(
          ["type": "string", "pattern": "^(\\[[^\\]]+\\]|[^\\s:\\[\\]]+):[0-9]{1,5}$"],
          "HOST:PORT the receiver listens on (loopback unless you mean otherwise)."),
        "tls": JSONSchema.described(
          [
            "type": "object", "required": ["certificate", "key"], "additionalProperties": false,
            "properties": [
              "certificate": JSONSchema.described(text, "The certificate chain, a PEM file."),
              "key": JSONSchema.described(text, "Its private key, a PEM file."),
              "required": JSONSchema.described(JSONSchema.type("boolean"), "Refuse mail sent without STARTTLS."),
            ],
          ], "STARTTLS with this certificate."),
        "auth": JSONSchema.described(
          [
            "type": "object", "required": ["user", "password"], "additionalProperties": false,
            "properties": ["user": text, "password": text],
          ], "AUTH PLAIN and LOGIN with these credentials; mail is refused without them."),
        "max_message_bytes": [
          "type": "integer", "minimum": .int(InputLimits.inboxMessageBytes.lowerBound),
          "maximum": .int(InputLimits.inboxMessageBytes.upperBound),
        ],
      ],
    ]
    return [
      "type": "object", "additionalProperties": false,
      "properties": [
        "smtp": JSONSchema.described(smtp, "An SMTP receiver authflow run starts for the run."),
        "http": urlOr(["token": text], "An `authflow inbox` elsewhere, read over its HTTP API."),
        "imap": JSONSchema.described(
          [
            "type": "object", "required": ["url", "user", "password"], "additionalProperties": false,
            "properties": [
              "url": JSONSchema.described(
                ["type": "string", "pattern": "^(imaps?://|\\$\\{\\{)"],
                "imaps://HOST[:PORT] (TLS) or imap://HOST[:PORT] (STARTTLS)."),
              "user": text, "password": text,
              "mailbox": JSONSchema.described(text, "The mailbox to search (default INBOX)."),
              "ca": JSONSchema.described(
                text, "A CA certificate (PEM) for the server's certificate; the system's by default."),
              "security": ["enum": JSONSchema.strings(InboxProfile.IMAPSecurity.allCases.map(\.rawValue))],
            ],
          ], "A real mailbox, read over IMAP (where the tenant's own email provider delivers)."),
        "address": JSONSchema.described(
          ["type": "string", "pattern": "^[^\\s]*\\{id\\}[^\\s]*@[^\\s]+\\.[^\\s]+$|^[^\\s]+@[^\\s]*\\{id\\}[^\\s]*$"],
          "The addresses random_email() makes for this tenant: one {id} (qa+{id}@test.example.com)."),
        "patterns": JSONSchema.described(
          [
            "type": "object", "additionalProperties": false,
            "properties": [
              "code": JSONSchema.described(text, "Where the one-time code is: its first group, or the whole match."),
              "link": JSONSchema.described(text, "Where the link is: its first group, or the whole match."),
            ],
          ], "How a code and a link are cut out of a message, where the tenant's templates differ from Auth0's."),
      ],
      "oneOf": [["required": ["smtp"]], ["required": ["http"]], ["required": ["imap"]]],
    ]
  }

  /// `login_pages:` of a tenant.
  static var loginPages: Value {
    let templatedString = JSONSchema.type("string")
    let form: Value = [
      "type": "object", "additionalProperties": false,
      "properties": [
        "form": JSONSchema.described(
          ["type": "string", "pattern": "^(form)?(#[^\\s\\[]+|\\[action\\*=.+\\])$"],
          "The form: '#ID' or '[action*=TEXT]'."),
        "fields": JSONSchema.described(
          ["type": "object", "additionalProperties": templatedString],
          "Logical value (email, password, …) → the form's field name; a form with one of them is this page's."),
        "submit": JSONSchema.described(templatedString, "The submit button: its name, value, id or label."),
      ],
    ]
    let request: Value = [
      "type": "object", "required": ["url"], "additionalProperties": false,
      "properties": [
        "method": ["enum": JSONSchema.strings(LoginPagesProfile.methods)],
        "url": JSONSchema.described(templatedString, "Absolute, or relative to the app page."),
        "json": JSONSchema.described(
          JSONSchema.type("object"),
          "A JSON body; `${{ login.email }}`, `${{ login.password }}`, `${{ page.query.X }}`, `${{ response.body.X }}` are in scope."
        ),
        "form": JSONSchema.described(
          ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]]], "A form-encoded body."),
      ],
      "not": ["required": ["json", "form"]],
    ]
    let app: Value = [
      "type": "object", "required": ["requests", "continue"], "additionalProperties": false,
      "properties": [
        "page": JSONSchema.described(templatedString, "The app page's URL path (its path ends with it)."),
        "requests": [
          "type": "array", "minItems": .int(InputLimits.appLoginRequests.lowerBound),
          "maxItems": .int(InputLimits.appLoginRequests.upperBound), "items": request,
        ],
        "continue": [
          "type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
          "properties": [
            "parameters": JSONSchema.described(
              JSONSchema.type("object"), "Repeat the authorization request with these added."),
            "url": JSONSchema.described(templatedString, "Go to this URL."),
          ],
        ],
      ],
    ]
    return [
      "type": "object", "additionalProperties": false,
      "properties": ["login": form, "consent": form, "app": app],
    ]
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
                ClientAuthenticationMethod.profileKey: JSONSchema.described(
                  [
                    "anyOf": [
                      ["enum": JSONSchema.strings(ClientAuthenticationMethod.allCases.map(\.rawValue))],
                      ["type": "string", "pattern": #"\$\{\{"#],
                    ]
                  ],
                  "How the client authenticates at the token endpoint; default client_secret_basic on oidc tenants (the OpenID default, or what discovery lists), client_secret_post in the JSON body on auth0 and mock tenants."
                ),
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
        "login_pages": JSONSchema.described(
          loginPages,
          "How the provider's login and consent pages are recognised and filled, and how a login page that is a JavaScript app is signed in (docs/real-tenants.md#login-pages); the built-in heuristics are the fallback."
        ),
        "inbox": JSONSchema.described(
          inbox,
          "Where the emails and text messages this tenant sends are read by `outbox` (docs/messages.md); the mock has its outbox without one."
        ),
        "password_grant_returns_id_token": JSONSchema.type("boolean"),
        "browser": JSONSchema.described(
          ["enum": JSONSchema.strings(BrowserEngine.allCases.map(\.rawValue))],
          "The browser that drives web_auth's login pages: html (built in, the default) or chromium (headless, over the DevTools protocol; docs/browser.md)."
        ),
        "rate_limit": JSONSchema.described(
          [
            "type": "object", "additionalProperties": false,
            "properties": [
              "requests_per_minute": [
                "type": "integer", "minimum": .int(InputLimits.requestsPerMinute.lowerBound),
                "maximum": .int(InputLimits.requestsPerMinute.upperBound),
              ]
            ],
          ],
          "The pace of requests to this tenant from the first one, across all jobs; the X-RateLimit-* headers it answers with pace the run as well (docs/running.md#rate-limits)."
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
        "monitor": JSONSchema.described(
          monitor, "How often `authflow monitor` runs each scenario (docs/monitor.md)."),
      ],
    ]
  }
}
