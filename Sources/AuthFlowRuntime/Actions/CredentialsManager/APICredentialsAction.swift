public import AuthFlowCore
public import AuthFlowScenario

/// `api_credentials` — Auth0.swift `apiCredentials(forAudience:scope:minTTL:)`: an access token
/// for another API from the stored refresh token (multi-resource refresh token, docs/protocol.md §3.4).
public struct APICredentialsAction: Action {
  static let audience = Parameter<String>("audience", required: true, summary: "The API identifier.")
  static let scope = Parameter<String>("scope", summary: "The scopes for that API; `openid` is always added.")
  static let minTTL = Parameter<Duration>(
    "min_ttl", summary: "Exchange again when the stored one expires sooner.",
    maximumDuration: InputLimits.longestMinimumTTL)

  public static let signature = ActionSignature(
    name: "api_credentials", summary: "Get (and store) an access token for another API with the stored refresh token.",
    declaring: [Self.audience, Self.scope, Self.minTTL],
    results: .closed(
      ResultField.credentials + [
        ResultField.cause,
        ResultField("exchanged", "Whether the refresh token was exchanged (false: the stored API credentials)."),
      ]))

  public static let documentation = """
    Returns the API credentials stored for `audience` when they are still valid for `min_ttl`
    and have the same scope; otherwise exchanges the stored refresh token with
    `grant_type=refresh_token`, `audience` and `scope` (with `openid` forced, as the SDK does),
    stores `access_token`, `token_type`, `expires_in`, `expires_at` and `scope` under
    `credentials.api[AUDIENCE]`, and replaces the stored main `id_token` and `refresh_token` with
    the response's when present. The result has `exchanged` (true/false). Errors:
    `no_credentials`, `no_refresh_token`, `api_exchange_failed` (cause in `error.body`).
    """

  public static let example = """
    scenario: An access token for another API from the stored refresh token
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: messages
        api_credentials: { audience: "https://api.example.com", scope: "read:messages" }
        expect:
          exchanged: true
          access_token.claims.aud: { contains: "https://api.example.com" }
          scope: { contains: read:messages }
      - id: again
        api_credentials: { audience: "https://api.example.com", scope: "openid read:messages" }
        expect: { exchanged: false }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .noCredentials,
    scenario: """
      scenario: API credentials need stored credentials
      client: native
      steps:
        - id: fails
          api_credentials: { audience: https://api.example.com/ }
      """)

  public static let traits = ActionTraits(
    capabilities: ["refresh_token"], errors: [.noCredentials, .noRefreshToken, .apiExchangeFailed],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let audience = try input.required(Self.audience)
    let scope = try input[Self.scope].map(AuthenticationAPI.scopeWithOpenID) ?? "openid"
    let minTTL = Int((try input[Self.minTTL] ?? .zero).seconds)
    let manager = CredentialsManager(context)
    var store = await context.credentialsStore()
    let now = await context.now()
    if let cached = store.api[audience], !CredentialsManager.willExpire(cached, within: minTTL, now: now),
      !CredentialsManager.scopeChanged(cached, requested: scope)
    {
      return .success(.object(cached.merging(["exchanged": false]) { _, new in new }))
    }
    guard let main = store.main else { return .protocolError(CredentialsManagerErrors.noCredentials, result: [:]) }
    guard let refreshToken = main["refresh_token"]?.stringValue else {
      return .protocolError(CredentialsManagerErrors.noRefreshToken, result: [:])
    }
    let body: [String: Value] = [
      "refresh_token": .secret(.string(refreshToken)), "audience": .string(audience), "scope": .string(scope),
    ]
    let outcome = try await manager.api.token(grant: AuthenticationAPI.Grant.refreshToken, body)
    guard case .success(let value) = outcome, let fresh = value.objectValue else {
      return CredentialsManagerErrors.wrap(outcome, as: CredentialsManagerErrors.apiExchangeFailed)
    }
    store.storeAPI(fresh, audience: audience)
    await context.setCredentialsStore(store)
    var result = store.api[audience] ?? [:]
    result["exchanged"] = true
    result["response"] = fresh["response"]
    return .success(.object(result))
  }
}
