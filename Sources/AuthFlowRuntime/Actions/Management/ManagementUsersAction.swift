public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// `management_users` — the Management API v2 users calls of Auth0.swift v2's `Users` client
/// (docs/protocol.md §7): get, patch `user_metadata`, link, unlink.
public struct ManagementUsersAction: Action {
  static let token = Parameter<String>("token", required: true, summary: "Management API access token (Bearer).")
  static let operation = Parameter<String>(
    "operation", .oneOf(["get", "patch_metadata", "link", "unlink"]), required: true, summary: "What to do.")
  static let userID = Parameter<String>("user_id", summary: "The user (default: the token's `sub`).")
  static let fields = Parameter<Value>(
    "fields", .array(of: .string), summary: "get: the fields to include (or exclude).")
  static let includeFields = Parameter<Bool>("include_fields", summary: "get: include (default) or exclude `fields`.")
  static let userMetadata = Parameter<[String: Value]>(
    "user_metadata", summary: "patch_metadata: merged into the user's metadata.")
  static let linkWith = Parameter<String>("link_with", summary: "link: the secondary account's ID token.")
  static let provider = Parameter<String>("provider", summary: "unlink: the secondary identity's provider.")
  static let secondaryUserID = Parameter<String>(
    "secondary_user_id", summary: "unlink: the secondary identity's user id.")

  public static let signature = ActionSignature(
    name: "management_users", summary: "Call the Management API v2 users endpoints with a user-context token.",
    declaring: [
      Self.token, Self.operation, Self.userID, Self.fields, Self.includeFields, Self.userMetadata, Self.linkWith,
      Self.provider, Self.secondaryUserID,
    ],
    results: .closed([
      ResultField("user", "The user (get, patch_metadata)."),
      ResultField("identities", "The identities (link, unlink)."), .response,
    ]))

  public static let documentation = """
    `get` sends `GET /api/v2/users/{id}` (with `fields` and `include_fields` only when `fields`
    is given), `patch_metadata` sends `PATCH /api/v2/users/{id}` `{"user_metadata":…}`, `link`
    sends `POST /api/v2/users/{id}/identities` `{"link_with":…}` and `unlink` sends
    `DELETE /api/v2/users/{id}/identities/{provider}/{secondary_user_id}`; `{id}` is
    percent-encoded (`auth0%7C123`). The result: `user` (get, patch_metadata) or `identities`
    (link, unlink), and the raw exchange under `response`. Errors
    (`{statusCode,error,message,errorCode}`) become the step's `error` with `code` = `errorCode`.
    """

  public static let example = """
    scenario: Read and update the user's own metadata
    client: native
    steps:
      - id: login
        http:
          url: oauth/token
          method: POST
          json:
            grant_type: http://auth0.com/oauth/grant-type/password-realm
            client_id: ${{ client.client_id }}
            username: ${{ tenant.users.alice.email }}
            password: ${{ tenant.users.alice.password }}
            realm: Username-Password-Authentication
            audience: ${{ tenant.issuer }}api/v2/
            scope: openid read:current_user update:current_user_metadata
      - id: patch
        management_users:
          token: ${{ steps.login.body.access_token }}
          operation: patch_metadata
          user_metadata: { theme: dark }
        expect:
          user.user_metadata.theme: dark
      - id: get
        management_users:
          token: ${{ steps.login.body.access_token }}
          operation: get
          fields: [user_id, user_metadata]
        expect:
          user.user_metadata.theme: dark
          user.email: { exists: false }
      - id: someone_else
        management_users:
          token: ${{ steps.login.body.access_token }}
          operation: get
          user_id: auth0|bob0002
        expect:
          error.code: insufficient_scope
          error.status: 403
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .insufficientScope,
    scenario: """
      scenario: A token without the scope cannot read another user
      client: native
      steps:
        - id: login
          http:
            url: oauth/token
            method: POST
            json:
              grant_type: http://auth0.com/oauth/grant-type/password-realm
              client_id: ${{ client.client_id }}
              username: ${{ tenant.users.alice.email }}
              password: ${{ tenant.users.alice.password }}
              realm: Username-Password-Authentication
              audience: ${{ tenant.issuer }}api/v2/
              scope: openid read:current_user
        - id: fails
          management_users:
            token: ${{ steps.login.body.access_token }}
            operation: get
            user_id: auth0|bob0002
      """)

  public static let traits = ActionTraits(
    errors: StepErrorCode.anyTenantCall + [
      .invalidToken, .insufficientScope, .unauthorized, .invalidRequest, .invalidBody, .inexistentUser,
      .inexistentIdentity, .identityConflict,
    ], failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let token = try input.required(Self.token)
    let operation = try input.required(Self.operation)
    guard let userID = try input[Self.userID] ?? JWTValue(raw: token)?.claims["sub"]?.stringValue else {
      throw .invalidParameter(Self.userID, "is required when the token has no `sub`")
    }
    let path = "api/v2/users/" + APIPaths.encode(userID)
    let answer: PasskeyExchange.Answer
    var resultKey = "user"
    switch operation {
    case "get":
      var query = ""
      if let fields = try input[Self.fields]?.arrayValue, !fields.isEmpty {
        let names = fields.map { $0.display(revealSecrets: true) }.joined(separator: ",")
        let include = try input[Self.includeFields] ?? true
        query = "?" + URLParameters([("fields", names), ("include_fields", String(include))]).queryString()
      }
      answer = try await PasskeyExchange.send(.get, path: path + query, body: nil, bearer: token, in: context)
    case "patch_metadata":
      let metadata = try input[Self.userMetadata] ?? [:]
      answer = try await PasskeyExchange.send(
        .patch, path: path, body: .object(["user_metadata": .object(metadata)]), bearer: token, in: context)
    case "link":
      resultKey = "identities"
      let linkWith = try input.required(Self.linkWith)
      answer = try await PasskeyExchange.send(
        path: path + "/identities", body: .object(["link_with": .string(linkWith)]), bearer: token, in: context)
    default:
      resultKey = "identities"
      let provider = try input.required(Self.provider)
      let secondary = try input.required(Self.secondaryUserID)
      answer = try await PasskeyExchange.send(
        .delete, path: "\(path)/identities/\(APIPaths.encode(provider))/\(APIPaths.encode(secondary))", body: nil,
        bearer: token, in: context)
    }
    guard (200..<300).contains(answer.status) else { return PasskeyExchange.protocolError(answer) }
    return .success(.object([resultKey: answer.body, "response": answer.response]))
  }
}
