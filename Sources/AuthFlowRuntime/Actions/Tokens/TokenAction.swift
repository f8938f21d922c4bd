public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `token` — a raw `POST /oauth/token` with any body, for negative tests.
public struct TokenAction: Action {
  static let body = Parameter<[String: Value]>("body", required: true, summary: "The request body, sent as given.")
  static let clientAuth = Parameter<Bool>(
    "client_auth", summary: "Add the client's `client_id` (and `client_secret`) when the body has none (default true).")
  static let encoding = Parameter<String>(
    "encoding", .oneOf(["json", "form"]),
    summary: "`json` (as Auth0.swift) or `form` (urlencoded); default: the tenant's (form on `oidc` tenants).")

  public static let signature = ActionSignature(
    name: "token", summary: "Send any body to POST /oauth/token (negative tests, unusual grants).",
    declaring: [Self.body, Self.clientAuth, Self.encoding] + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Sends `body` to `/oauth/token` (on an `oidc` tenant, its discovered token endpoint)
    unchanged: no `openid` is added, nothing is validated, so a scenario can send a wrong
    `grant_type`, a missing parameter or a foreign client. Unless `client_auth: false`, the
    scenario client's `client_id` (and secret) is added when the body has no `client_id`. Without
    `encoding`, the body is encoded as the tenant expects (JSON on `mock`/`auth0`, a form with the
    client's authentication method on `oidc`). A success is a credentials result; an error
    response is `error`.
    """

  public static let example = """
    scenario: An unknown grant type is rejected
    client: native
    steps:
      - id: bad_grant
        token:
          body: { grant_type: "urn:example:unknown" }
        expect:
          error.code: unsupported_grant_type
          error.status: 501
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .unsupportedGrantType,
    scenario: """
      scenario: An unknown grant type is refused
      client: native
      steps:
        - id: fails
          token: { body: { grant_type: urn:example:no-such-grant } }
      """)

  public static let traits = ActionTraits(
    capabilityUses: [
      CapabilityUse("authorization_code", when: "body.grant_type", .oneOf(["authorization_code"])),
      CapabilityUse("client_credentials", when: "body.grant_type", .oneOf(["client_credentials"])),
      CapabilityUse("password", when: "body.grant_type", .oneOf(["password"])),
      CapabilityUse(
        "password_realm", when: "body.grant_type", .oneOf(["http://auth0.com/oauth/grant-type/password-realm"])),
      CapabilityUse("refresh_token", when: "body.grant_type", .oneOf(["refresh_token"])),
      CapabilityUse(
        "passwordless", when: "body.grant_type", .oneOf(["http://auth0.com/oauth/grant-type/passwordless/otp"])),
      CapabilityUse("device_flow", when: "body.grant_type", .oneOf(["urn:ietf:params:oauth:grant-type:device_code"])),
      CapabilityUse("mfa", when: "body.grant_type", .oneOf(["http://auth0.com/oauth/grant-type/mfa-otp"])),
    ],
    errors: StepErrorCode.tokenEndpoint + [
      .mfaRequired, .requiresVerification, .tooManyAttempts, .unauthorized, .passwordLeaked, .authorizationPending,
      .slowDown, .expiredToken,
    ], failures: ActionTraits.tenantCall, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    guard var body = try input[Self.body] else { throw .invalidParameter(Self.body, "is required") }
    let api = AuthenticationAPI(context)
    if try input[Self.clientAuth] ?? true, body["client_id"] == nil {
      body.merge(try api.clientAuthentication()) { given, _ in given }
    }
    let response: HTTPResponse
    switch try input[Self.encoding] {
    case "form": response = try await api.post("oauth/token", form: body)
    case "json": response = try await api.post("oauth/token", json: body)
    default: response = try await api.post("oauth/token", oauth: body)
    }
    let outcome = try await api.credentials(from: response)
    guard case .protocolError(var error, let result) = outcome, Self.isCodeExchangeWithoutVerifier(body) else {
      return outcome
    }
    error.hint = TokenMessages.noVerifier(
      publicClient: body["client_secret"] == nil && context.client.clientSecret == nil)
    return .protocolError(error, result: result)
  }

  /// An authorization-code exchange that sends no `code_verifier`: refused, the cause is most often
  /// the PKCE challenge the code was requested with, which the tenant's answer may not name
  /// (Auth0 answers a public client `access_denied` "Unauthorized").
  static func isCodeExchangeWithoutVerifier(_ body: [String: Value]) -> Bool {
    body["grant_type"]?.stringValue == "authorization_code" && (body["code_verifier"]?.isNull ?? true)
  }
}

/// The messages of `token`.
enum TokenMessages {
  static func noVerifier(publicClient: Bool) -> String {
    "the exchange sent no code_verifier: a code requested with a PKCE challenge (web_auth sends one) is redeemed "
      + "with its verifier, `code_verifier: ${{ steps.ID.code_verifier }}` from a `web_auth` step with "
      + "`stop_at: callback`"
      + (publicClient ? "; a public client, with no secret, proves the exchange by it alone" : "")
  }
}
