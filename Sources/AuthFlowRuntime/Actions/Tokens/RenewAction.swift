public import AuthFlowCore
public import AuthFlowScenario

/// `renew` — exchanges a refresh token (Auth0.swift `renew(withRefreshToken:scope:)`).
public struct RenewAction: Action {
  static let refreshToken = Parameter<String>("refresh_token", required: true, summary: "The refresh token.")
  static let scope = Parameter<String>("scope", summary: "Down-scoping; sent unchanged (no `openid` added).")
  static let audience = Parameter<String>("audience", summary: "Another API (multi-resource refresh token).")

  public static let signature = ActionSignature(
    name: "renew", summary: "Exchange a refresh token for new credentials (refresh_token grant).",
    declaring: [Self.refreshToken, Self.scope, Self.audience] + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=refresh_token`, `refresh_token`, and `scope` /
    `audience` when given, as a JSON body. Like the SDK's `renew`, `scope` is passed unchanged.
    The result is credentials; with rotation on, it has a new `refresh_token`. A reused or revoked
    refresh token is `error.code: invalid_grant` with `Unknown or invalid refresh token.`
    """

  public static let example = """
    scenario: A refresh token rotates, and reusing the old one fails
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          access_token: { exists: true }
          refresh_token: { exists: true, not_equals: "${{ steps.login.refresh_token }}" }
      - id: reuse
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect:
          error.code: invalid_grant
          error.description: Unknown or invalid refresh token.
          error.status: 403
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: An unknown refresh token is refused
      client: native
      steps:
        - id: fails
          renew: { refresh_token: not-a-refresh-token }
      """)

  public static let traits = ActionTraits(
    capabilities: ["refresh_token"], errors: StepErrorCode.tokenEndpoint, failures: ActionTraits.tenantCall,
    idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var body: [String: Value] = ["refresh_token": .secret(.string(try input.required(Self.refreshToken)))]
    AuthenticationAPI.put("scope", try input[Self.scope], in: &body)
    AuthenticationAPI.put("audience", try input[Self.audience], in: &body)
    return try await AuthenticationAPI(context).token(grant: AuthenticationAPI.Grant.refreshToken, body)
  }
}
