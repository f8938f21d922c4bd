public import AuthFlowCore
public import AuthFlowScenario

/// `login` — database login with the password-realm grant (Auth0.swift `login(usernameOrEmail:…)`).
public struct LoginAction: Action {
  static let username = Parameter<String>("username", required: true, summary: "The email or username.")
  static let password = Parameter<String>("password", required: true, summary: "The password (a secret).")
  static let realm = Parameter<String>(
    "realm", summary: "The database connection (default `Username-Password-Authentication`).")
  static let scope = Parameter<String>(
    "scope", summary: "Scope; `openid` is prepended (default `openid profile email`).")
  static let audience = Parameter<String>("audience", summary: "The API to get an access token for.")

  public static let signature = ActionSignature(
    name: "login", summary: "Log in with a username or email and password (password-realm grant).",
    declaring: [Self.username, Self.password, Self.realm, Self.scope, Self.audience] + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=http://auth0.com/oauth/grant-type/password-realm`,
    `username`, `password`, `realm`, `scope` (with `openid` prepended when missing, as Auth0.swift
    does) and `audience`, as a JSON body. The result is credentials: `access_token`, `id_token`,
    `refresh_token` (JWT values where they are JWTs, secrets otherwise), `token_type`,
    `expires_in`, `expires_at` (now + `expires_in`), `scope`, and `response` (the raw exchange).
    Wrong credentials, a blocked user, brute-force protection and `mfa_required` (with
    `error.body.mfa_token`) are protocol errors.
    """

  public static let example = """
    scenario: Alice logs in with her password
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: profile email offline_access
        expect:
          token_type: Bearer
          id_token.claims.email: alice@example.com
          refresh_token: { exists: true }
          expires_in: { gt: 0 }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: A wrong password is refused
      client: native
      steps:
        - id: fails
          login:
            username: ${{ tenant.users.alice.email }}
            password: not-her-password
      """)

  public static let traits = ActionTraits(
    capabilities: ["password_realm"],
    capabilityUses: [
      CapabilityUse(
        "bot_detection", when: Self.username,
        .described("one the tenant finds suspicious, to see `requires_verification`"))
    ],
    errors: StepErrorCode.tokenEndpoint + [
      .requiresVerification, .invalidUserPassword, .mfaRequired, .legacyMFARequired, .tooManyAttempts, .unauthorized,
      .passwordLeaked,
    ],
    failures: ActionTraits.tenantCall, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var body: [String: Value] = [
      "username": .string(try input.required(Self.username)),
      "password": .secret(.string(try input.required(Self.password))),
      "realm": .string(try input[Self.realm] ?? "Username-Password-Authentication"),
      "scope": .string(AuthenticationAPI.scopeWithOpenID(try input[Self.scope])),
    ]
    AuthenticationAPI.put("audience", try input[Self.audience], in: &body)
    return try await AuthenticationAPI(context).token(grant: AuthenticationAPI.Grant.passwordRealm, body)
  }
}
