public import AuthFlowCore
import AuthFlowHTTP
import AuthFlowJOSE
public import AuthFlowScenario
import Foundation

/// `my_account_passkey` — enroll a passkey through the My Account API, as Auth0.swift's
/// `passkeyEnrollmentChallenge` + `enroll(passkey:challenge:)` do (docs/protocol.md §6).
public struct MyAccountPasskeyAction: Action {
  static let token = Parameter<String>(
    "token", required: true,
    summary: "A My Account API access token (audience `<issuer>me/`, scope `create:me:authentication_methods`).")
  static let identityUserID = Parameter<String>(
    "identity_user_id", summary: "The identity to enroll for (default: the token's user).")
  static let connection = Parameter<String>("connection", summary: "That identity's database connection.")
  static let authenticator = Parameter<String>(
    "authenticator",
    summary: "The virtual authenticator's name (default `default`); `passkey_login` can use it afterwards.")
  static let origin = Parameter<String>(
    "origin", summary: "The origin the authenticator reports (default `https://<rp.id>`).")

  public static let signature = ActionSignature(
    name: "my_account_passkey", summary: "Enroll a passkey through the My Account API with a virtual authenticator.",
    declaring: [Self.token, Self.identityUserID, Self.connection, Self.authenticator, Self.origin],
    results: .closed([
      ResultField("authentication_method", "The verify answer: `id`, `type`, `key_id`, …"),
      ResultField("enrollment_id", "The method id from `Location`."),
      ResultField("passkey", "The credential: `passkey.id`."), .response,
    ]))

  public static let documentation = """
    Sends `POST /me/v1/authentication-methods` `{"type":"passkey"}` (plus `identity_user_id`,
    `connection`) with `Authorization: Bearer <token>`, takes the method id from the **last path
    segment of the `Location` header**, percent-decoded (`passkey|new`; the step fails when the
    header is missing, as the SDK does), lets the named virtual authenticator create a resident
    P-256 credential for the creation options (`rp.id`, `user.id`, `user.name`, `challenge`), then
    sends `POST /me/v1/authentication-methods/{id}/verify` `{"auth_session","authn_response"}`.

    The result: `authentication_method` (the verify answer: `id`, `type`, `key_id`,
    `public_key`, `user_handle`, `credential_device_type`, `credential_backed_up`, `created_at`,
    `aaguid`, `relying_party_id`, …), `enrollment_id` (from `Location`), `passkey.id` (the
    credential id) and `response`. An RFC 7807 error from either call is the step's `error`, with
    `code` = `type` and `description` = `detail`.
    """

  public static let example = """
    scenario: Enroll a passkey through My Account, then log in with it
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          audience: ${{ tenant.issuer }}me/
          scope: openid create:me:authentication_methods
      - id: enroll
        my_account_passkey:
          token: ${{ steps.login.access_token }}
          authenticator: laptop
        expect:
          enrollment_id: passkey|new
          authentication_method.type: passkey
          authentication_method.relying_party_id: { exists: true }
      - id: passkey
        passkey_login: { authenticator: laptop }
        expect:
          id_token.claims.sub: ${{ tenant.users.alice.user_id }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .insufficientScope,
    scenario: """
      scenario: A token without the scope cannot enroll a passkey
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            audience: ${{ tenant.issuer }}me/
            scope: openid read:me:authentication_methods
        - id: fails
          my_account_passkey:
            token: ${{ steps.login.access_token }}
      """)

  public static let traits = ActionTraits(
    capabilities: ["my_account", "passkeys"],
    errors: StepErrorCode.myAccount + [.invalidAuthnResponse, .passkeyExists],
    failures: ActionTraits.browserFlow)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let token = try input.required(Self.token)
    var body: [String: Value] = ["type": .string("passkey")]
    for parameter in [Self.identityUserID, Self.connection] {
      if let value = try input[parameter] { body[parameter.name] = .string(value) }
    }
    let start = try await PasskeyExchange.send(
      path: APIPaths.myAccountMethods, body: .object(body), bearer: token, in: context)
    guard (200..<300).contains(start.status) else { return PasskeyExchange.protocolError(start) }
    guard let id = APIPaths.enrollmentID(start.headers["Location"]) else {
      throw .environment(MyAccountMessages.missingLocation)
    }
    let options = start.body.member("authn_params_public_key")
    guard let authSession = start.body.member("auth_session"),
      let rpID = options?.member("rp")?.member("id")?.stringValue,
      let handleText = options?.member("user")?.member("id")?.stringValue,
      let userHandle = Base64URL.decode(handleText),
      let userName = options?.member("user")?.member("name")?.stringValue,
      let challenge = options?.member("challenge")?.stringValue, Base64URL.decode(challenge) != nil
    else { throw .environment(MyAccountMessages.incompleteOptions) }
    context.secrets.register(secretsIn: authSession)
    let origin = try PasskeyExchange.origin(rpID: rpID, input: input)
    let authn = await context.state.authenticators.with(try input[Self.authenticator] ?? "default") {
      $0.register(rpID: rpID, userHandle: Array(userHandle), userName: userName, challenge: challenge, origin: origin)
    }
    let verify = try await PasskeyExchange.send(
      path: APIPaths.myAccountMethods + "/" + APIPaths.encode(id) + "/verify",
      body: .object(["auth_session": authSession, "authn_response": authn]), bearer: token, in: context)
    guard (200..<300).contains(verify.status) else { return PasskeyExchange.protocolError(verify) }
    return .success(
      .object([
        "authentication_method": verify.body, "enrollment_id": .string(id),
        "passkey": .object(["id": authn.member("id") ?? .null, "user_handle": .string(handleText)]),
        "response": verify.response,
      ]))
  }
}

/// The messages of the My Account actions.
enum MyAccountMessages {
  static let missingLocation =
    "the enrollment answer has no Location header (Auth0.swift takes the method id from it)"
  static let incompleteOptions =
    "the passkey enrollment answer has no auth_session, rp.id, user.id, user.name or base64url challenge"
}
