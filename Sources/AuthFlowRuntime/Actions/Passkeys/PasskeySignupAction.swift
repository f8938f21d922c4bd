public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario

/// `passkey_signup` — sign up with a new passkey: `/passkey/register`, the virtual authenticator
/// creates the credential, the webauthn grant exchanges it for tokens (docs/protocol.md §4.5, §3.5).
public struct PasskeySignupAction: Action {
  static let email = Parameter<String>("email", summary: "The new user's email (put in `user_profile`).")
  static let userProfile = Parameter<[String: Value]>(
    "user_profile", summary: "`user_profile` members (`email`, `name`, `username`, `phone_number`, …).")
  static let userMetadata = Parameter<[String: Value]>("user_metadata", summary: "At most 10 string properties.")

  public static let signature = ActionSignature(
    name: "passkey_signup", summary: "Sign up with a passkey created by a virtual WebAuthn authenticator.",
    declaring: [Self.email, Self.userProfile, Self.userMetadata] + PasskeyExchange.commonParameters,
    results: .closed(
      ResultField.credentials + [
        ResultField("passkey", "The passkey created: `passkey.id`, `passkey.user_handle`.")
      ]))

  public static let documentation = """
    Sends `POST /passkey/register` with `user_profile` (and `realm`, `organization`,
    `user_metadata`), lets the named virtual authenticator create a resident P-256 credential for
    the returned creation options (attestation `none`), then completes the signup with the
    `urn:okta:params:oauth:grant-type:webauthn` grant (`auth_session`, `authn_response`).

    The result is a credentials result (`access_token`, `id_token`, `refresh_token`, `token_type`,
    `expires_in`, `expires_at`, `scope`) plus `passkey.id` (the credential id) and
    `passkey.user_handle`. An error from either request is the step's `error`.
    """

  public static let example = """
    scenario: Sign up with a passkey, then log in with it
    client: native
    steps:
      - id: signup
        passkey_signup:
          email: ${{ random_email() }}
        expect:
          id_token.claims.email_verified: false
          passkey.id: { exists: true }
      - id: login
        passkey_login: {}
        expect:
          id_token.claims.sub: ${{ steps.signup.id_token.claims.sub }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidRequest,
    scenario: """
      scenario: An existing user cannot sign up again with a passkey
      client: native
      steps:
        - id: fails
          passkey_signup: { email: "${{ tenant.users.alice.email }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["passkeys", "signup"], errors: StepErrorCode.tokenEndpoint + [.userExists, .invalidSignup],
    failures: ActionTraits.browserFlow)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var profile = try input[Self.userProfile] ?? [:]
    if let email = try input[Self.email] { profile["email"] = .string(email) }
    guard !profile.isEmpty else { throw .invalidParameter(Self.email, "give `email` or `user_profile`") }
    var body: [String: Value] = [
      "client_id": context.client.clientID.map(Value.string) ?? .null, "user_profile": .object(profile),
    ]
    for parameter in [PasskeyExchange.realm, PasskeyExchange.organization] {
      if let value = try input[parameter] { body[parameter.name] = .string(value) }
    }
    if let metadata = try input[Self.userMetadata] { body["user_metadata"] = .object(metadata) }
    let start = try await PasskeyExchange.send(path: "passkey/register", body: .object(body), in: context)
    guard (200..<300).contains(start.status) else { return PasskeyExchange.protocolError(start) }
    let options = start.body.member("authn_params_public_key")
    guard let authSession = start.body.member("auth_session"),
      let rpID = options?.member("rp")?.member("id")?.stringValue,
      let handleText = options?.member("user")?.member("id")?.stringValue,
      let userHandle = Base64URL.decode(handleText), let challenge = options?.member("challenge")?.stringValue,
      Base64URL.decode(challenge) != nil
    else { throw .environment("/passkey/register answered without rp.id, user.id or challenge") }
    let userName = options?.member("user")?.member("name")?.stringValue ?? ""
    let origin = try PasskeyExchange.origin(rpID: rpID, input: input)
    let authn = await context.state.authenticators.with(try input[PasskeyExchange.authenticator] ?? "default") {
      $0.register(rpID: rpID, userHandle: Array(userHandle), userName: userName, challenge: challenge, origin: origin)
    }
    context.secrets.register(secretsIn: authSession)
    let token = try await PasskeyExchange.send(
      path: "oauth/token",
      body: try PasskeyExchange.tokenBody(
        authSession: authSession, authnResponse: authn, input: input, context: context),
      in: context)
    guard (200..<300).contains(token.status) else { return PasskeyExchange.protocolError(token) }
    return .success(
      PasskeyExchange.credentials(
        token,
        extra: ["passkey": .object(["id": authn.member("id") ?? .null, "user_handle": .string(handleText)])]))
  }
}
