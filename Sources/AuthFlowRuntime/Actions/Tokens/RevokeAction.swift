public import AuthFlowCore
public import AuthFlowScenario

/// `revoke` — revokes a refresh token (Auth0.swift `revoke(refreshToken:)`).
public struct RevokeAction: Action {
  static let refreshToken = Parameter<String>("refresh_token", required: true, summary: "The refresh token.")

  public static let signature = ActionSignature(
    name: "revoke", summary: "Revoke a refresh token (POST /oauth/revoke).",
    declaring: [Self.refreshToken],
    results: .closed([ResultField("revoked", "True."), .response]))

  public static let documentation = """
    Sends `POST /oauth/revoke` with `client_id` (and `client_secret` for confidential clients)
    and `token`, as a JSON body (a form body, with the client's authentication method, on an
    `oidc` tenant's revocation endpoint). An empty 200 is success; the result is `revoked: true` and
    `response`. The token, and with rotation its whole family, can no longer be exchanged.
    """

  public static let example = """
    scenario: A revoked refresh token no longer renews
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - id: revoke
        revoke: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          revoked: true
          response.status: 200
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          error.code: invalid_grant
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: Revoking without a token value
      client: native
      steps:
        - id: fails
          revoke: { refresh_token: "${{ null }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["revocation"], errors: StepErrorCode.authenticationAPI + [.unsupportedTokenType],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    try await AuthenticationAPI(context).revoke(
      refreshToken: try Parameters(parameters).required(Self.refreshToken))
  }
}
