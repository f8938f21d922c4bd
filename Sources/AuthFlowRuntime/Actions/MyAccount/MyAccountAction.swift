public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// `my_account` — the My Account API's authentication-method calls of Auth0.swift's
/// `MyAccount.authenticationMethods` (docs/protocol.md §6): list, get, update, delete, factors, and the
/// two halves of a non-passkey enrollment (`enroll`, `verify`).
public struct MyAccountAction: Action {
  static let token = Parameter<String>(
    "token", required: true, summary: "A My Account API access token (audience `<issuer>me/`).")
  static let operation = Parameter<String>(
    "operation", .oneOf(["list", "get", "update", "delete", "factors", "enroll", "verify"]), required: true,
    summary: "What to do.")
  static let id = Parameter<String>(
    "id", summary: "get, update, delete, verify: the method id (`passkey|…`, `totp|…`).")
  static let type = Parameter<String>(
    "type",
    summary:
      "list: only methods of this type; enroll: `totp`, `push-notification`, `recovery-code`, `email`, `phone`, `password`."
  )
  static let name = Parameter<String>("name", summary: "update: the method's new name.")
  static let email = Parameter<String>("email", summary: "enroll email: the address.")
  static let phoneNumber = Parameter<String>("phone_number", summary: "enroll phone: the E.164 number.")
  static let preferredAuthenticationMethod = Parameter<String>(
    "preferred_authentication_method", .oneOf(["sms", "voice"]), summary: "enroll phone, update: the channel.")
  static let identityUserID = Parameter<String>("identity_user_id", summary: "enroll password: the identity.")
  static let connection = Parameter<String>("connection", summary: "enroll password: the identity's connection.")
  static let authSession = Parameter<String>("auth_session", summary: "verify: the enrollment's `auth_session`.")
  static let otpCode = Parameter<String>("otp_code", summary: "verify email, phone, totp: the code.")
  static let newPassword = Parameter<String>("new_password", summary: "verify password: the new password (a secret).")

  public static let signature = ActionSignature(
    name: "my_account", summary: "Call the My Account API's authentication-method endpoints.",
    declaring: [
      Self.token, Self.operation, Self.id, Self.type, Self.name, Self.email, Self.phoneNumber,
      Self.preferredAuthenticationMethod, Self.identityUserID, Self.connection, Self.authSession, Self.otpCode,
      Self.newPassword,
    ],
    results: .open(
      [
        ResultField("authentication_methods", "list: the methods.", type: .list),
        ResultField("factors", "factors: the factors.", type: .list),
        ResultField("authentication_method", "get, update, verify: the method (`id`, `type`, `confirmed`, …)."),
        ResultField("id", "enroll: the new method's id (from `Location` when the body has none)."),
        ResultField.secret("auth_session", "enroll: the session `verify` sends back."),
        ResultField.secret("barcode_uri", "enroll totp, push-notification: the `otpauth://` URI (it holds the seed)."),
        ResultField.secret("manual_input_code", "enroll totp: the seed, for `totp(…)`."),
        ResultField.secret("recovery_code", "enroll recovery-code: the code."),
        ResultField("policy", "enroll password: the password policy.", type: .object), .response,
      ], others: "enroll: the rest of the tenant's enrollment answer"))

  public static let documentation = """
    Every call sends `Authorization: Bearer <token>` to `/me/v1/…`:

    - `list`: `GET /me/v1/authentication-methods[?type=…]` → `authentication_methods` (the list of
      the SDK's `{"authentication_methods":[…]}`).
    - `get` / `update` / `delete`: `GET`, `PATCH {"name"?,"preferred_authentication_method"?}`,
      `DELETE /me/v1/authentication-methods/{id}` (`{id}` percent-encoded) →
      `authentication_method` (nothing for `delete`).
    - `factors`: `GET /me/v1/factors` → `factors`.
    - `enroll`: `POST /me/v1/authentication-methods` `{"type", …}` → the answer's members
      (`auth_session`, `barcode_uri`, `manual_input_code`, `recovery_code`, `policy`, …) and `id`,
      taken from the `Location` header's last segment when the body has none. Passkeys have their
      own action, `my_account_passkey`.
    - `verify`: `POST …/{id}/verify` with `auth_session` and `otp_code` or `new_password` →
      `authentication_method`.

    Every result has the raw exchange under `response`. An RFC 7807 error is the step's `error`,
    with `code` = `type` and `description` = `detail`.
    """

  public static let example = """
    scenario: Enroll an authenticator app through My Account and list it
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          audience: ${{ tenant.issuer }}me/
          scope: openid create:me:authentication_methods read:me:authentication_methods
      - id: enroll
        my_account:
          token: ${{ steps.login.access_token }}
          operation: enroll
          type: totp
        expect:
          id: { starts_with: "totp|" }
          manual_input_code: { exists: true }
      - id: verify
        my_account:
          token: ${{ steps.login.access_token }}
          operation: verify
          id: ${{ steps.enroll.id }}
          auth_session: ${{ steps.enroll.auth_session }}
          otp_code: ${{ totp(steps.enroll.manual_input_code) }}
        expect:
          authentication_method.confirmed: true
      - id: list
        my_account:
          token: ${{ steps.login.access_token }}
          operation: list
          type: totp
        expect:
          authentication_methods.0.id: ${{ steps.enroll.id }}
      - id: no_scope
        my_account:
          token: ${{ steps.login.access_token }}
          operation: factors
        expect:
          error.code: insufficient_scope
          error.status: 403
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .insufficientScope,
    scenario: """
      scenario: A token without the scope cannot list factors
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            audience: ${{ tenant.issuer }}me/
            scope: openid read:me:authentication_methods
        - id: fails
          my_account:
            token: ${{ steps.login.access_token }}
            operation: factors
      """)

  public static let traits = ActionTraits(
    capabilities: ["my_account"],
    capabilityUses: [
      CapabilityUse(
        "password_history", when: Self.newPassword, .described("one of the user's last passwords, to see it refused"))
    ],
    errors: StepErrorCode.myAccount + [
      .invalidOTPCode, .lastAuthenticationMethod, .passwordStrengthError, .passwordHistoryError,
      .passwordDictionaryError, .passwordNoUserInfoError,
    ],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let token = try input.required(Self.token)
    let operation = try input.required(Self.operation)
    let answer: PasskeyExchange.Answer
    var result: [String: Value] = [:]
    switch operation {
    case "list":
      var path = APIPaths.myAccountMethods
      if let type = try input[Self.type] { path += "?" + URLParameters([("type", type)]).queryString() }
      answer = try await PasskeyExchange.send(.get, path: path, body: nil, bearer: token, in: context)
      result["authentication_methods"] = answer.body.member("authentication_methods") ?? answer.body
    case "factors":
      answer = try await PasskeyExchange.send(.get, path: "me/v1/factors", body: nil, bearer: token, in: context)
      result["factors"] = answer.body.member("factors") ?? answer.body
    case "get", "update", "delete":
      let path = APIPaths.myAccountMethods + "/" + APIPaths.encode(try input.required(Self.id))
      if operation == "update" {
        var body: [String: Value] = [:]
        for parameter in [Self.name, Self.preferredAuthenticationMethod] {
          if let value = try input[parameter] { body[parameter.name] = .string(value) }
        }
        answer = try await PasskeyExchange.send(.patch, path: path, body: .object(body), bearer: token, in: context)
      } else {
        answer = try await PasskeyExchange.send(
          operation == "get" ? .get : .delete, path: path, body: nil, bearer: token, in: context)
      }
      if operation != "delete" { result["authentication_method"] = answer.body }
    case "enroll":
      var body: [String: Value] = ["type": .string(try input.required(Self.type))]
      for parameter in [
        Self.email, Self.phoneNumber, Self.preferredAuthenticationMethod, Self.identityUserID, Self.connection,
      ] {
        if let value = try input[parameter] { body[parameter.name] = .string(value) }
      }
      answer = try await PasskeyExchange.send(
        path: APIPaths.myAccountMethods, body: .object(body), bearer: token, in: context)
      result = answer.body.objectValue ?? [:]
      if result["id"] == nil, let id = APIPaths.enrollmentID(answer.headers["Location"]) { result["id"] = .string(id) }
    default:
      let id = try input.required(Self.id)
      var body: [String: Value] = ["auth_session": .string(try input.required(Self.authSession))]
      if let code = try input[Self.otpCode] { body["otp_code"] = .string(code) }
      if let password = try input[Self.newPassword] { body["new_password"] = .secret(.string(password)) }
      answer = try await PasskeyExchange.send(
        path: APIPaths.myAccountMethods + "/" + APIPaths.encode(id) + "/verify", body: .object(body),
        bearer: token, in: context)
      result["authentication_method"] = answer.body
    }
    guard (200..<300).contains(answer.status) else { return PasskeyExchange.protocolError(answer) }
    result["response"] = answer.response
    return .success(.object(result))
  }
}
