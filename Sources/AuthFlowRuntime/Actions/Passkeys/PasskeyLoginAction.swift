public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario

/// `passkey_login` — log in with a passkey the scenario's virtual authenticator holds:
/// `/passkey/challenge`, an assertion, the webauthn grant (docs/protocol.md §4.5, §3.5).
public struct PasskeyLoginAction: Action {
  static let credentialID = Parameter<String>(
    "credential_id", summary: "Use this credential (base64url); default: the authenticator's newest one.")

  public static let signature = ActionSignature(
    name: "passkey_login", summary: "Log in with a passkey held by a virtual WebAuthn authenticator.",
    declaring: [
      Self.credentialID
    ] + PasskeyExchange.commonParameters + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials + [ResultField("passkey", "The passkey used: `passkey.id`.")]))

  public static let documentation = """
    Sends `POST /passkey/challenge` (with `realm`, `organization`), has the named virtual
    authenticator sign the challenge with its passkey for the returned `rpId` (the counter goes up
    by one per assertion), then sends the `urn:okta:params:oauth:grant-type:webauthn` grant with
    the assertion (`authenticatorData`, `signature`, `userHandle`).

    The result is a credentials result plus `passkey.id`. When the authenticator has no passkey
    for the relying party, the step fails (the flow cannot go on).
    """

  public static let example = """
    scenario: A passkey logs in to the account it created
    client: native
    steps:
      - id: signup
        passkey_signup:
          email: ${{ random_email() }}
          authenticator: phone
      - id: login
        passkey_login:
          authenticator: phone
          scope: openid email offline_access
        expect:
          id_token.claims.sub: ${{ steps.signup.id_token.claims.sub }}
          refresh_token: { exists: true }
    """

  public static let failingExample = FailingExample(
    .flow,
    scenario: """
      scenario: An authenticator without a passkey cannot log in
      client: native
      steps:
        - id: fails
          passkey_login: { authenticator: empty }
      """)

  public static let traits = ActionTraits(
    capabilities: ["passkeys"], errors: StepErrorCode.tokenEndpoint, failures: ActionTraits.browserFlow,
    idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var body: [String: Value] = ["client_id": context.client.clientID.map(Value.string) ?? .null]
    for parameter in [PasskeyExchange.realm, PasskeyExchange.organization] {
      if let value = try input[parameter] { body[parameter.name] = .string(value) }
    }
    let start = try await PasskeyExchange.send(path: "passkey/challenge", body: .object(body), in: context)
    guard (200..<300).contains(start.status) else { return PasskeyExchange.protocolError(start) }
    let options = start.body.member("authn_params_public_key")
    guard let authSession = start.body.member("auth_session"), let rpID = options?.member("rpId")?.stringValue,
      let challenge = options?.member("challenge")?.stringValue, Base64URL.decode(challenge) != nil
    else { throw .environment("/passkey/challenge answered without rpId or challenge") }
    var allowed: [[UInt8]] = []
    if let credentialID = try input[Self.credentialID] {
      guard let bytes = Base64URL.decode(credentialID) else {
        throw .invalidParameter(Self.credentialID, "is not base64url")
      }
      allowed = [Array(bytes)]
    }
    let origin = try PasskeyExchange.origin(rpID: rpID, input: input)
    let name = try input[PasskeyExchange.authenticator] ?? "default"
    let authn: Value
    do {
      authn = try await context.state.authenticators.with(name) { authenticator throws(VirtualAuthenticator.Failure) in
        try authenticator.assert(rpID: rpID, challenge: challenge, origin: origin, allowCredentials: allowed)
      }
    } catch {
      throw .flow("authenticator '\(name)': \(error.description)")
    }
    context.secrets.register(secretsIn: authSession)
    let token = try await PasskeyExchange.send(
      path: "oauth/token",
      body: try PasskeyExchange.tokenBody(
        authSession: authSession, authnResponse: authn, input: input, context: context),
      in: context)
    guard (200..<300).contains(token.status) else { return PasskeyExchange.protocolError(token) }
    return .success(
      PasskeyExchange.credentials(token, extra: ["passkey": .object(["id": authn.member("id") ?? .null])]))
  }
}
