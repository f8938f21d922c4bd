public import AuthFlowCore
public import AuthFlowScenario

/// `userinfo` — the user's profile for an access token (Auth0.swift `userInfo(withAccessToken:)`).
public struct UserInfoAction: Action {
  static let accessToken = Parameter<String>("access_token", required: true, summary: "The access token.")

  public static let signature = ActionSignature(
    name: "userinfo", summary: "Get the user's claims for an access token (GET /userinfo).",
    declaring: [Self.accessToken],
    results: .open(
      ResultField.userClaims + [.response], others: "the tenant's other claims (custom, namespaced ones)"))

  public static let documentation = """
    Sends `GET /userinfo` with `Authorization: Bearer <access_token>`. The result is the claims
    the tenant returned (filtered by the token's scope: `sub` always, `email` with `email`, …)
    plus `response`. Auth0.swift requires `sub`; a response without it fails the step. A bad
    token is a protocol error (a plain-text `Unauthorized` becomes `a0.sdk.internal_error.plain`).
    """

  public static let example = """
    scenario: The user's claims follow the granted scope
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid email
      - id: userinfo
        userinfo: { access_token: "${{ steps.login.access_token }}" }
        expect:
          sub: ${{ tenant.users.alice.user_id }}
          email: alice@example.com
          name: { exists: false }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .plainError,
    scenario: """
      scenario: A made-up access token is refused
      client: native
      steps:
        - id: fails
          userinfo: { access_token: not-an-access-token }
      """)

  public static let traits = ActionTraits(
    capabilities: ["userinfo"],
    errors: StepErrorCode.anyTenantCall + [.plainError, .unknownError, .invalidToken, .unauthorized],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let token = try Parameters(parameters).required(Self.accessToken)
    let response = try await AuthenticationAPI(context).get("userinfo", bearer: token)
    return try AuthenticationResponse.outcome(response) { claims throws(ActionError) in
      guard claims["sub"]?.stringValue != nil else {
        throw .flow(AuthenticationMessages.missingMember("sub", url: response.url))
      }
      return claims
    }
  }
}
