public import AuthFlowCore
public import AuthFlowScenario

/// `passwordless_login` — completes a passwordless login with the code
/// (Auth0.swift `login(email:code:…)` / `login(phoneNumber:code:…)`).
public struct PasswordlessLoginAction: Action {
  static let email = Parameter<String>("email", summary: "The email the code was sent to.")
  static let phoneNumber = Parameter<String>("phone_number", summary: "The phone number the code was sent to.")
  static let otp = Parameter<String>("otp", required: true, summary: "The one-time code (a secret).")
  static let realm = Parameter<String>("realm", summary: "`email` or `sms` (default from which address is given).")
  static let scope = Parameter<String>(
    "scope", summary: "Scope; `openid` is prepended (default `openid profile email`).")
  static let audience = Parameter<String>("audience", summary: "The API to get an access token for.")

  public static let signature = ActionSignature(
    name: "passwordless_login", summary: "Log in with a passwordless one-time code (passwordless/otp grant).",
    declaring: [Self.email, Self.phoneNumber, Self.otp, Self.realm, Self.scope, Self.audience]
      + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

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

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: A wrong code is refused
      client: native
      steps:
        - id: start
          passwordless_start: { email: "${{ tenant.users.alice.email }}" }
        - id: fails
          passwordless_login: { email: "${{ tenant.users.alice.email }}", otp: "000000" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["passwordless"],
    capabilityUses: [
      CapabilityUse("passwordless_email", when: Self.email, .given),
      CapabilityUse("passwordless_sms", when: Self.phoneNumber, .given),
    ],
    errors: StepErrorCode.tokenEndpoint + [.tooManyAttempts],
    failures: ActionTraits.tenantCall, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let email = try input[Self.email]
    let phone = try input[Self.phoneNumber]
    guard let username = email ?? phone else {
      throw .invalidParameter(Self.email, "give `email` or `phone_number`")
    }
    var body: [String: Value] = [
      "username": .string(username),
      "otp": .secret(.string(try input.required(Self.otp))),
      "realm": .string(try input[Self.realm] ?? (email != nil ? "email" : "sms")),
      "scope": .string(AuthenticationAPI.scopeWithOpenID(try input[Self.scope])),
    ]
    AuthenticationAPI.put("audience", try input[Self.audience], in: &body)
    return try await AuthenticationAPI(context).token(grant: AuthenticationAPI.Grant.passwordlessOTP, body)
  }
}
