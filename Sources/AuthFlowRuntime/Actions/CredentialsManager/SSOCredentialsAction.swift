public import AuthFlowCore
public import AuthFlowScenario

/// `sso_credentials` — Auth0.swift `ssoCredentials()`: a session transfer token from the stored
/// refresh token, to open a web session without logging in again (docs/protocol.md §3.1, §3.2).
public struct SSOCredentialsAction: Action {

  public static let signature = ActionSignature(
    name: "sso_credentials", summary: "Exchange the stored refresh token for a session transfer token.",
    declaring: [],
    results: .closed(
      ResultField.credentials + [
        ResultField.cause,
        ResultField.secret("session_transfer_token", "The session transfer token (secret)."),
      ]))

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=refresh_token`, the stored `refresh_token` and
    `audience=urn:<tenant host, without port>:session_transfer`. The result: `session_transfer_token`
    (the response's `access_token`, secret), `issued_token_type`, `token_type`, `expires_in`,
    `expires_at`, `id_token` (the SDK requires it) and `refresh_token` (the rotated one, or the
    stored one when none came back), plus `response`. The stored refresh and ID tokens are
    replaced with the response's. Use the token at `/authorize?session_transfer_token=…`.
    Errors: `no_credentials`, `no_refresh_token`, `sso_exchange_failed`.
    """

  public static let example = """
    scenario: A session transfer token from the stored credentials
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: sso
        sso_credentials: {}
        expect:
          issued_token_type: urn:auth0:params:oauth:token-type:session_transfer_token
          expires_in: 60
          id_token.claims.sub: ${{ tenant.users.alice.user_id }}
          refresh_token: ${{ credentials.refresh_token }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .noCredentials,
    scenario: """
      scenario: Nothing stored, no session transfer token
      client: native
      steps:
        - id: fails
          sso_credentials: {}
      """)

  public static let traits = ActionTraits(
    capabilities: ["refresh_token"], errors: [.noCredentials, .noRefreshToken, .ssoExchangeFailed],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let manager = CredentialsManager(context)
    var store = await context.credentialsStore()
    guard let main = store.main else { return .protocolError(CredentialsManagerErrors.noCredentials, result: [:]) }
    guard let refreshToken = main["refresh_token"]?.stringValue else {
      return .protocolError(CredentialsManagerErrors.noRefreshToken, result: [:])
    }
    let body: [String: Value] = [
      "refresh_token": .secret(.string(refreshToken)), "audience": .string(manager.sessionTransferAudience),
    ]
    let outcome = try await manager.api.token(grant: AuthenticationAPI.Grant.refreshToken, body)
    guard case .success(let value) = outcome, var result = value.objectValue else {
      return CredentialsManagerErrors.wrap(outcome, as: CredentialsManagerErrors.ssoExchangeFailed)
    }
    guard result["id_token"] != nil, result["issued_token_type"] != nil else {
      throw .environment(AuthenticationMessages.missingMember("id_token` or `issued_token_type", url: "oauth/token"))
    }
    store.rotate(refreshToken: result["refresh_token"], idToken: result["id_token"])
    await context.setCredentialsStore(store)
    result["session_transfer_token"] = result["access_token"]
    result["refresh_token"] = result["refresh_token"] ?? main["refresh_token"]
    return .success(.object(result))
  }
}
