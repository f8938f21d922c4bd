public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_renew` — Auth0.swift v3 `credentialsManager.renew()`: renews now, whatever the TTL.
public struct CredentialsRenewAction: Action {
  static let scope = Parameter<String>("scope", summary: "Down-scoping for the renewal.")

  public static let signature = ActionSignature(
    name: "credentials_renew", summary: "Renew the stored credentials now with the stored refresh token.",
    declaring: [Self.scope],
    results: .closed(ResultField.credentials + [ResultField.cause, ResultField("renewed", "Always true.")]))

  public static let documentation = """
    Exchanges the stored refresh token even when the access token is still valid, stores the
    result (keeping the old refresh token when the response has none) and returns it with
    `renewed: true`. Errors: `no_credentials`, `no_refresh_token`, `refresh_failed`.
    """

  public static let example = """
    scenario: Renewing stores the rotated refresh token
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: renew
        credentials_renew: {}
        expect:
          renewed: true
          refresh_token: ${{ credentials.refresh_token }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .noCredentials,
    scenario: """
      scenario: Nothing stored, nothing to renew
      client: native
      steps:
        - id: fails
          credentials_renew: {}
      """)

  public static let traits = ActionTraits(
    capabilities: ["refresh_token"], errors: [.noCredentials, .noRefreshToken, .refreshFailed],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    try await CredentialsManager(context).get(scope: try Parameters(parameters)[Self.scope], minTTL: 0, force: true)
  }
}
