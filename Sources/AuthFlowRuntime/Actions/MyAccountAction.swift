public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// `my_account` — the My Account API's authentication-method calls of Auth0.swift's
/// `MyAccount.authenticationMethods` (PROTOCOL §6): list, get, update, delete, factors, and the
/// two halves of a non-passkey enrollment (`enroll`, `verify`).
public struct MyAccountAction: Action {
  public static let signature = ActionSignature(
    name: "my_account", summary: "Call the My Account API's authentication-method endpoints.",
    parameters: [
      ParameterSignature(
        "token", .string, required: true, summary: "A My Account API access token (audience `<issuer>me/`)."),
      ParameterSignature(
        "operation", .oneOf(["list", "get", "update", "delete", "factors", "enroll", "verify"]), required: true,
        summary: "What to do."),
      ParameterSignature("id", .string, summary: "get, update, delete, verify: the method id (`passkey|…`, `totp|…`)."),
      ParameterSignature(
        "type", .string,
        summary:
          "list: only methods of this type; enroll: `totp`, `push-notification`, `recovery-code`, `email`, `phone`, `password`."
      ),
      ParameterSignature("name", .string, summary: "update: the method's new name."),
      ParameterSignature("email", .string, summary: "enroll email: the address."),
      ParameterSignature("phone_number", .string, summary: "enroll phone: the E.164 number."),
      ParameterSignature(
        "preferred_authentication_method", .oneOf(["sms", "voice"]), summary: "enroll phone, update: the channel."),
      ParameterSignature("identity_user_id", .string, summary: "enroll password: the identity."),
      ParameterSignature("connection", .string, summary: "enroll password: the identity's connection."),
      ParameterSignature("auth_session", .string, summary: "verify: the enrollment's `auth_session`."),
      ParameterSignature("otp_code", .string, summary: "verify email, phone, totp: the code."),
      ParameterSignature("new_password", .string, summary: "verify password: the new password (a secret)."),
    ])

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

  public static let traits = ActionTraits(
    capabilities: ["my_account"], errors: [.unauthorized], failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let token = try input.requiredString("token")
    let operation = try input.requiredString("operation")
    let answer: PasskeyExchange.Answer
    var result: [String: Value] = [:]
    switch operation {
    case "list":
      var path = APIPaths.myAccountMethods
      if let type = try input.string("type") { path += "?" + URLParameters([("type", type)]).queryString() }
      answer = try await PasskeyExchange.send(.get, path: path, body: nil, bearer: token, in: context)
      result["authentication_methods"] = answer.body.member("authentication_methods") ?? answer.body
    case "factors":
      answer = try await PasskeyExchange.send(.get, path: "me/v1/factors", body: nil, bearer: token, in: context)
      result["factors"] = answer.body.member("factors") ?? answer.body
    case "get", "update", "delete":
      let path = APIPaths.myAccountMethods + "/" + APIPaths.encode(try input.requiredString("id"))
      if operation == "update" {
        var body: [String: Value] = [:]
        for name in ["name", "preferred_authentication_method"] {
          if let value = try input.string(name) { body[name] = .string(value) }
        }
        answer = try await PasskeyExchange.send(.patch, path: path, body: .object(body), bearer: token, in: context)
      } else {
        answer = try await PasskeyExchange.send(
          operation == "get" ? .get : .delete, path: path, body: nil, bearer: token, in: context)
      }
      if operation != "delete" { result["authentication_method"] = answer.body }
    case "enroll":
      var body: [String: Value] = ["type": .string(try input.requiredString("type"))]
      for name in ["email", "phone_number", "preferred_authentication_method", "identity_user_id", "connection"] {
        if let value = try input.string(name) { body[name] = .string(value) }
      }
      answer = try await PasskeyExchange.send(
        path: APIPaths.myAccountMethods, body: .object(body), bearer: token, in: context)
      result = answer.body.objectValue ?? [:]
      if result["id"] == nil, let id = APIPaths.enrollmentID(answer.headers["Location"]) { result["id"] = .string(id) }
      for key in ["auth_session", "recovery_code", "manual_input_code"] {
        if let secret = result[key] {
          context.secrets.register(secretsIn: secret.asSecret)
          result[key] = secret.asSecret
        }
      }
    default:
      let id = try input.requiredString("id")
      var body: [String: Value] = ["auth_session": .string(try input.requiredString("auth_session"))]
      if let code = try input.string("otp_code") { body["otp_code"] = .string(code) }
      if let password = try input.string("new_password") { body["new_password"] = .secret(.string(password)) }
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
