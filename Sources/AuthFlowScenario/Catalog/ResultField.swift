import AuthFlowCore

/// One top-level member of a step's result (`steps.<id>.FIELD…`, `expect: { FIELD…: … }`): the
/// first path segment only, where the rest is dynamic (`body.*`, `claims.*`), with its type and
/// whether it is a secret.
public struct ResultField: Sendable, Hashable {
  /// The member's name (`access_token`, `status`, `page`).
  public var name: String
  /// One line for the reference docs.
  public var summary: String
  /// What the member holds.
  public var type: ResultType
  /// True when the member is a secret: the runtime masks it in every step result
  /// (``ResultSchema/maskingSecretFields(in:)``), so reports, traces and messages show `***`.
  public var isSecret: Bool

  /// A field; its type is `type`, or the one ``ResultType/usual(for:)`` knows for its name.
  /// `secret: true` declares it a secret.
  public init(_ name: String, _ summary: String, type: ResultType? = nil, secret: Bool = false) {
    self.name = name
    self.summary = summary
    self.type = type ?? ResultType.usual(for: name)
    self.isSecret = secret
  }

  /// A secret field: `ResultField(name, summary, type:, secret: true)`.
  public static func secret(_ name: String, _ summary: String, type: ResultType? = nil) -> ResultField {
    ResultField(name, summary, type: type, secret: true)
  }

  /// Present on every result of a step whose action answered with a protocol error:
  /// `error.code`, `error.description`, `error.status`, `error.body`.
  public static let error = ResultField(
    "error", "On a protocol error: `error.code`, `error.description`, `error.status`, `error.body`.")

  /// The raw HTTP exchange (`response.status`, `response.headers`, `response.body`, …).
  public static let response = ResultField(
    "response", "The raw exchange: `status`, `headers`, `body`, `cookies`, `url`.")

  /// A Credentials Manager error's underlying protocol error (`cause.code`, `cause.description`, …).
  public static let cause = ResultField(
    "cause", "On a Credentials Manager error: the tenant's error (`cause.code`, `cause.description`, …).")

  /// The members of a token response read as credentials (docs/design.md §2), plus `response`.
  public static let credentials: [ResultField] = [
    .secret("access_token", "The access token (a JWT value when it is a JWT, a secret otherwise)."),
    .secret("id_token", "The ID token, a JWT value: `id_token.claims.*`, `id_token.header.*`."),
    .secret("refresh_token", "The refresh token, when one was issued."),
    ResultField("token_type", "Usually `Bearer`."),
    ResultField("expires_in", "Seconds the access token lives."),
    ResultField("expires_at", "Epoch seconds: now + `expires_in`."),
    ResultField("scope", "The granted scope, when the tenant says it."),
    ResultField("issued_token_type", "What a token exchange issued (RFC 8693), when the tenant says it."),
    .secret("recovery_code", "An MFA recovery code, when the tenant issues a new one."),
    ResultField("id_token_valid", "With ID-token validation: whether the ID token passed (docs/protocol.md §5)."),
    ResultField("id_token_error", "With ID-token validation: why it did not, in Auth0.swift's words."),
    response,
  ]

  /// The standard claims of a user's profile (OpenID Connect Core §5.1, docs/protocol.md §4.6): what
  /// `/userinfo` answers, and the profile claims of an ID token. Which appear follows the scope.
  public static let userClaims: [ResultField] = [
    ResultField("sub", "The user's id; always present."),
    ResultField("name", "The full name (scope `profile`)."),
    ResultField("given_name", "The given name (scope `profile`)."),
    ResultField("family_name", "The family name (scope `profile`)."),
    ResultField("middle_name", "The middle name (scope `profile`)."),
    ResultField("nickname", "The nickname (scope `profile`)."),
    ResultField("preferred_username", "The preferred username (scope `profile`)."),
    ResultField("profile", "The profile page's URL (scope `profile`)."),
    ResultField("picture", "The picture's URL (scope `profile`)."),
    ResultField("website", "The web site's URL (scope `profile`)."),
    ResultField("gender", "The gender (scope `profile`)."),
    ResultField("birthdate", "The birthdate, `YYYY-MM-DD` (scope `profile`)."),
    ResultField("zoneinfo", "The time zone (scope `profile`)."),
    ResultField("locale", "The locale (scope `profile`)."),
    ResultField(
      "updated_at",
      "When the profile last changed (scope `profile`): an ISO 8601 string from `/userinfo`, epoch seconds in an ID token.",
      type: .any),
    ResultField("email", "The email address (scope `email`)."),
    ResultField("email_verified", "Whether the address is verified (scope `email`).", type: .bool),
    ResultField("phone_number", "The phone number (scope `phone`)."),
    ResultField("phone_number_verified", "Whether the number is verified (scope `phone`).", type: .bool),
    ResultField("address", "The postal address (scope `address`).", type: .object),
  ]

  /// An HTTP result (`http`, and any `response`).
  public static let http: [ResultField] = [
    ResultField("status", "The HTTP status."),
    ResultField("headers", "Response headers, by lower-cased name."),
    ResultField("body", "The body: JSON when it parses, else text (`body.*`)."),
    ResultField("cookies", "Cookies set by the response, by name."),
    ResultField("url", "The final URL."),
  ]
}

/// What a result field holds, as the reference docs say it.
public enum ResultType: String, Sendable, Hashable {
  case string
  case int = "integer"
  case number
  case bool = "boolean"
  /// A JWT value: `.claims.*`, `.header.*`, `.raw`.
  case jwt = "JWT"
  /// A JWT value when the token is a JWT, else a string.
  case token = "JWT or string"
  case object
  case list
  case any

  /// The type of the members every action names alike (`status`, `expires_in`, `id_token`, …);
  /// `any` for the others, unless their declaration says.
  public static func usual(for name: String) -> ResultType {
    switch name {
    case "status", "expires_in", "expires_at", "interval", "count", "polls", "waited_ms", "ttl", "sent_at":
      return .int
    case "now", "offset": return .number
    case "id_token", "token": return .jwt
    case "access_token", "refresh_token": return .token
    case "id_token_valid", "can_renew", "exchanged", "expired", "has_valid", "renewed", "revoked", "stored":
      return .bool
    case "headers", "cookies", "response", "error", "cause", "page", "user", "authentication_method",
      "authorize_parameters", "passkey", "payload":
      return .object
    case "pages", "redirects", "identities": return .list
    case "body", "value": return .any
    default: return .string
    }
  }
}
