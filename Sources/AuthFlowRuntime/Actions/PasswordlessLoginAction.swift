public import AuthFlowCore
public import AuthFlowScenario

/// `passwordless_login` — completes a passwordless login with the code
/// (Auth0.swift `login(email:code:…)` / `login(phoneNumber:code:…)`).
public struct PasswordlessLoginAction: Action {
  public static let signature = ActionSignature(
    name: "passwordless_login", summary: "Log in with a passwordless one-time code (passwordless/otp grant).",
    parameters: [
      ParameterSignature("email", .string, summary: "The email the code was sent to."),
      ParameterSignature("phone_number", .string, summary: "The phone number the code was sent to."),
      ParameterSignature("otp", .string, required: true, summary: "The one-time code (a secret)."),
      ParameterSignature("realm", .string, summary: "`email` or `sms` (default from which address is given)."),
      ParameterSignature("scope", .string, summary: "Scope; `openid` is prepended (default `openid profile email`)."),
      ParameterSignature("audience", .string, summary: "The API to get an access token for."),
    ] + IDTokenOptIn.parameters,
    results: ResultField.credentials)

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=http://auth0.com/oauth/grant-type/passwordless/otp`,
    `username` (the email or phone number), `otp`, `realm` (`email`|`sms`), `scope` (with `openid`)
    and `audience`, as a JSON body (no `redirect_uri`, as the SDK). The result is credentials.
    A wrong or expired code is `invalid_grant` with `Wrong email or verification code.` (or
    `Wrong phone number or verification code.`).
    """

  public static let example = """
    scenario: Log in with a code sent by email
    client: native
    vars:
      email: ${{ random_email() }}
    steps:
      - id: start
        passwordless_start: { email: "${{ vars.email }}" }
      - id: mail
        outbox: { to: "${{ vars.email }}" }
        expect:
          code: { matches: "^[0-9]{6}$" }
      - id: login
        passwordless_login: { email: "${{ vars.email }}", otp: "${{ steps.mail.code }}" }
        expect:
          id_token.claims.email: ${{ vars.email }}
          id_token.claims.email_verified: true
    """

  public static let traits = ActionTraits(
    capabilities: ["passwordless"], errors: StepErrorCode.tokenEndpoint + [.tooManyAttempts],
    failures: ActionTraits.tenantCall, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let email = try input.string("email")
    let phone = try input.string("phone_number")
    guard let username = email ?? phone else {
      throw .invalidParameter("email", "give `email` or `phone_number`")
    }
    var body: [String: Value] = [
      "username": .string(username),
      "otp": .secret(.string(try input.requiredString("otp"))),
      "realm": .string(try input.string("realm") ?? (email != nil ? "email" : "sms")),
      "scope": .string(AuthenticationAPI.scopeWithOpenID(try input.string("scope"))),
    ]
    AuthenticationAPI.put("audience", try input.string("audience"), in: &body)
    return try await AuthenticationAPI(context).token(grant: AuthenticationAPI.Grant.passwordlessOTP, body)
  }
}
