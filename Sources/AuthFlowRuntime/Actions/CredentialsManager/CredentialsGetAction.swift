public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_get` — Auth0.swift `credentials(withScope:minTTL:)`: the stored credentials,
/// renewed when needed.
public struct CredentialsGetAction: Action {
  static let minTTL = Parameter<Duration>(
    "min_ttl", summary: "Renew when the access token expires sooner (default 0).",
    maximumDuration: InputLimits.longestMinimumTTL)
  static let scope = Parameter<String>("scope", summary: "Renew with this scope when it differs from the stored one.")

  public static let signature = ActionSignature(
    name: "credentials_get", summary: "Get the stored credentials, renewing them when expired or below `min_ttl`.",
    declaring: [Self.minTTL, Self.scope],
    results: .closed(
      ResultField.credentials + [
        ResultField.cause, ResultField("renewed", "Whether the credentials were renewed."),
      ]))

  public static let documentation = """
    Fails with `no_credentials` unless `has_valid` holds. Returns the stored credentials unless
    the access token has expired, expires within `min_ttl`, or `scope` differs from the stored
    scope; then it exchanges the stored refresh token (`no_refresh_token` without one), keeps
    the old refresh token when the response has none, fails with `large_min_ttl` when even the
    new token is too short-lived, stores and returns the new credentials. The result has
    `renewed` (true/false) and, after a renewal, `response`. A failed exchange is
    `refresh_failed`, with the tenant's error in `error.body` and `cause`.
    """

  public static let example = """
    scenario: Credentials below the minimum TTL are renewed and stored
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: cached
        credentials_get: { min_ttl: 86000s }
        expect: { renewed: false }
      - id: later
        mock_clock: 10m
      - id: renewed
        credentials_get: { min_ttl: 86000s }
        expect:
          renewed: true
          refresh_token: { exists: true, not_equals: "${{ steps.login.refresh_token }}" }
      - assert:
          that: ${{ credentials.refresh_token == steps.renewed.refresh_token }}
    cleanup:
      - mock_clock: -10m
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .noCredentials,
    scenario: """
      scenario: Nothing stored, nothing to get
      client: native
      steps:
        - id: fails
          credentials_get: {}
      """)

  public static let traits = ActionTraits(
    capabilities: ["refresh_token"], errors: [.noCredentials, .noRefreshToken, .refreshFailed, .largeMinTTL],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let minTTL = Int((try input[Self.minTTL] ?? .zero).seconds)
    return try await CredentialsManager(context).get(scope: try input[Self.scope], minTTL: minTTL)
  }
}
