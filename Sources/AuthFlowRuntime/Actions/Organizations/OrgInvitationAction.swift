public import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario

/// `org_invitation` — organization invitations through the Management API v2: create (the tenant
/// emails the invitation link), list, get, delete.
public struct OrgInvitationAction: Action {
  static let organization = Parameter<String>("organization", required: true, summary: "The organization id (`org_…`).")
  static let operation = Parameter<String>(
    "operation", .oneOf(["create", "list", "get", "delete"]), summary: "What to do (default create).")
  static let invitee = Parameter<String>("invitee", summary: "create: the email address to invite.")
  static let inviter = Parameter<String>("inviter", summary: "create: the inviter's name (default authflow).")
  static let clientID = Parameter<String>(
    "client_id", summary: "create: the application the link opens (default: the scenario's client).")
  static let connection = Parameter<String>("connection", summary: "create: the connection the invitee signs up with.")
  static let ttl = Parameter<Duration>(
    "ttl", summary: "create: how long the invitation is valid (default 7 days).",
    maximumDuration: InputLimits.longestInvitationTTL)
  static let roles = Parameter<Value>("roles", .array(of: .string), summary: "create: role ids given on acceptance.")
  static let sendEmail = Parameter<Bool>("send_email", summary: "create: email the invitation link (default true).")
  static let invitationID = Parameter<String>(
    "invitation_id", summary: "get, delete: the invitation's `id` (`uinv_…`).")
  static let token = Parameter<String>(
    "token", summary: "A Management API token; default: one obtained by client credentials for `management_client`.")
  static let managementClient = Parameter<String>(
    "management_client", summary: "The tenant's client profile for client credentials (default m2m).")

  public static let signature = ActionSignature(
    name: "org_invitation", summary: "Create, list, get or delete organization invitations (Management API v2).",
    declaring: [
      Self.organization, Self.operation, Self.invitee, Self.inviter, Self.clientID, Self.connection, Self.ttl,
      Self.roles, Self.sendEmail, Self.invitationID, Self.token, Self.managementClient,
    ],
    results: .closed([
      ResultField("id", "create, get: the invitation's id (`uinv_…`)."),
      ResultField("organization_id", "create, get: its organization."),
      ResultField("inviter", "create, get: `inviter.name`.", type: .object),
      ResultField("invitee", "create, get: `invitee.email`.", type: .object),
      ResultField("client_id", "create, get: the application the link opens."),
      ResultField("connection_id", "create, get: the connection, when one was given."),
      ResultField.secret("invitation_url", "create, get: the link the invitee opens."),
      ResultField.secret("ticket_id", "create, get: the invitation ticket in the link."),
      ResultField("created_at", "create, get: ISO 8601.", type: .string),
      ResultField("expires_at", "create, get: ISO 8601.", type: .string),
      ResultField("roles", "create, get: role ids given on acceptance.", type: .list),
      ResultField("app_metadata", "create, get: its app metadata.", type: .object),
      ResultField("user_metadata", "create, get: its user metadata.", type: .object),
      ResultField("invitations", "list: the invitations, each as above.", type: .list),
      ResultField("deleted", "delete: true.", type: .bool), .response,
    ]))

  public static let documentation = """
    Calls `POST /api/v2/organizations/{organization}/invitations` (create, body
    `{"inviter":{"name"},"invitee":{"email"},"client_id","connection_id"?,"ttl_sec"?,"roles"?,
    "send_invitation_email"?}`), `GET …/invitations` (list), `GET …/invitations/{invitation_id}`
    (get) or `DELETE …/invitations/{invitation_id}` (delete) with `Authorization: Bearer`. Without
    `token`, a token is first obtained by `client_credentials` for the audience
    `{issuer}api/v2/` with the client profile `management_client` (its `client_id` and
    `client_secret`); it needs `create:`, `read:` or `delete:organization_invitations`. The result
    of create and get: the invitation (`id`, `organization_id`, `inviter`, `invitee`, `client_id`,
    `invitation_url` and `ticket_id` — both secret —, `created_at`, `expires_at`, `roles`, …);
    list: `invitations`; delete: `deleted: true`; and the raw exchange under `response`. Errors
    (`{statusCode,error,message,errorCode}`) become the step's `error` with `code` = `errorCode`.
    Open the link with `web_auth`'s `invitation_url`; read the email with `outbox`.
    """

  public static let example = """
    scenario: An invitation is created, listed and emailed
    client: native
    vars:
      email: ${{ random_email() }}
    steps:
      - id: invite
        org_invitation: { organization: org_acme123, invitee: "${{ vars.email }}", inviter: Alice }
        expect:
          id: { starts_with: uinv_ }
          invitee.email: ${{ vars.email }}
          invitation_url: { contains: "organization=org_acme123" }
      - id: listed
        org_invitation: { organization: org_acme123, operation: list }
        expect:
          invitations[0].id: ${{ steps.invite.id }}
          invitations[0].invitee.email: ${{ vars.email }}
      - id: mail
        outbox: { to: "${{ vars.email }}" }
        expect:
          invitation: ${{ steps.invite.ticket_id }}
          organization: org_acme123
          organization_name: acme
      - id: delete
        org_invitation: { organization: org_acme123, operation: delete, invitation_id: "${{ steps.invite.id }}" }
        expect: { deleted: true }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .inexistentOrganization,
    scenario: """
      scenario: An unknown organization has no invitations
      client: native
      steps:
        - id: fails
          org_invitation: { organization: org_nosuchorg, invitee: someone@example.com }
      """)

  public static let traits = ActionTraits(
    capabilities: ["organizations"],
    capabilityUses: [
      CapabilityUse(
        "client_credentials", when: Self.token,
        .described("left out, a Management API token is obtained by client credentials for `management_client`"))
    ],
    errors: StepErrorCode.anyTenantCall + [
      .inexistentInvitation, .inexistentOrganization, .unauthorized, .invalidRequest, .invalidBody, .invalidToken,
      .insufficientScope,
    ],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let organization = try input.required(Self.organization)
    let operation = try input[Self.operation] ?? "create"
    let token: String
    if let given = try input[Self.token] {
      token = given
    } else {
      switch try await Self.managementToken(input, context: context) {
      case .success(let obtained): token = obtained
      case .failure(let outcome): return outcome
      }
    }
    let path = "api/v2/organizations/\(APIPaths.encode(organization))/invitations"
    let answer: PasskeyExchange.Answer
    switch operation {
    case "list":
      answer = try await PasskeyExchange.send(.get, path: path, body: nil, bearer: token, in: context)
    case "get", "delete":
      let id = APIPaths.encode(try input.required(Self.invitationID))
      answer = try await PasskeyExchange.send(
        operation == "get" ? .get : .delete, path: "\(path)/\(id)", body: nil, bearer: token, in: context)
    default:
      answer = try await PasskeyExchange.send(
        path: path, body: .object(try Self.createBody(input, context: context)), bearer: token, in: context)
    }
    guard (200..<300).contains(answer.status) else { return PasskeyExchange.protocolError(answer) }
    var result: [String: Value]
    switch operation {
    case "list": result = ["invitations": .array((answer.body.arrayValue ?? []).map(Self.invitation))]
    case "delete": result = ["deleted": .bool(true)]
    default: result = Self.invitation(answer.body).objectValue ?? [:]
    }
    result["response"] = answer.response
    return .success(.object(result))
  }

  /// The create body.
  static func createBody(_ input: Parameters, context: ActionContext) throws(ActionError) -> [String: Value] {
    let invitee = try input.required(Self.invitee)
    guard let clientID = try input[Self.clientID] ?? context.client.clientID else {
      throw .invalidParameter(Self.clientID, OrgInvitationMessages.noClientID)
    }
    var body: [String: Value] = [
      "inviter": .object(["name": .string(try input[Self.inviter] ?? "authflow")]),
      "invitee": .object(["email": .string(invitee)]), "client_id": .string(clientID),
    ]
    if let connection = try input[Self.connection] { body["connection_id"] = .string(connection) }
    if let ttl = try input[Self.ttl] {
      body["ttl_sec"] = .int(Int(ttl.seconds.rounded()))
    }
    if let roles = try input[Self.roles]?.arrayValue { body["roles"] = .array(roles) }
    if let send = try input[Self.sendEmail] { body["send_invitation_email"] = .bool(send) }
    return body
  }

  /// An invitation with its link and ticket marked secret.
  static func invitation(_ value: Value) -> Value {
    guard var members = value.objectValue else { return value }
    for key in ["invitation_url", "ticket_id"] { members[key] = members[key]?.asSecret }
    return .object(members)
  }

  /// What getting a Management API token gave: the token, or the step's outcome when it failed.
  enum TokenResult {
    case success(String)
    case failure(ActionOutcome)
  }

  /// A client-credentials token for the Management API.
  static func managementToken(_ input: Parameters, context: ActionContext) async throws(ActionError) -> TokenResult {
    let profile = try input[Self.managementClient] ?? "m2m"
    guard let client = context.tenant.client(named: profile), let clientID = client.clientID,
      let secret = client.clientSecret
    else { throw .invalidParameter(Self.managementClient, OrgInvitationMessages.noManagementClient(profile)) }
    let body: [String: Value] = [
      "grant_type": .string("client_credentials"), "client_id": .string(clientID),
      "client_secret": .secret(.string(secret)), "audience": .string(context.tenant.issuer + "api/v2/"),
    ]
    let answer = try await PasskeyExchange.send(path: "oauth/token", body: .object(body), in: context)
    guard (200..<300).contains(answer.status) else { return .failure(PasskeyExchange.protocolError(answer)) }
    guard let token = answer.body.member("access_token")?.stringValue else {
      throw .environment(AuthenticationMessages.missingMember("access_token", url: "oauth/token"))
    }
    context.secrets.register(secretsIn: .secret(.string(token)))
    return .success(token)
  }
}

/// The messages of `org_invitation`.
enum OrgInvitationMessages {
  static let noClientID = "is required when the scenario's client has no client_id"

  static func noManagementClient(_ profile: String) -> String {
    "the tenant has no client profile '\(profile)' with a client_id and client_secret for client credentials "
      + "(pass `token`, or name a machine-to-machine client)"
  }
}
