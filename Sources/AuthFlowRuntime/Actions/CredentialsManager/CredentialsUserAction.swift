public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_user` — Auth0.swift `credentialsManager.user`: the stored ID token's claims.
public struct CredentialsUserAction: Action {

  public static let signature = ActionSignature(
    name: "credentials_user", summary: "The user profile from the stored ID token's claims.", declaring: [],
    results: .open(
      ResultField.userClaims + [
        ResultField("iss", "The issuer."), ResultField("aud", "The audience: the client id, or a list.", type: .any),
        ResultField("exp", "Expiry, epoch seconds.", type: .int),
        ResultField("iat", "Issued at, epoch seconds.", type: .int),
        ResultField("auth_time", "When the user authenticated, epoch seconds.", type: .int),
        ResultField("nonce", "The nonce of the request that issued it."),
        ResultField("org_id", "The organization logged in to."), ResultField("org_name", "Its name, lower-cased."),
      ], others: "the ID token's other claims (the tenant's custom, namespaced ones)"))

  public static let documentation = """
    Decodes the stored ID token (without a network call and without checking expiry, as the SDK)
    and returns its claims (`sub`, `email`, `name`, …). Fails with `no_credentials` when no ID
    token is stored.
    """

  public static let example = """
    scenario: The stored ID token names the user
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: user
        credentials_user: {}
        expect:
          sub: ${{ tenant.users.alice.user_id }}
          email: alice@example.com
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .noCredentials,
    scenario: """
      scenario: No stored ID token, no user
      steps:
        - id: fails
          credentials_user: {}
      """)

  public static let traits = ActionTraits(errors: [.noCredentials], failures: [.protocolError, .invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let store = await context.credentialsStore()
    guard let idToken = store.main?["id_token"], let text = idToken.stringValue, let token = JWTValue(raw: text) else {
      return .protocolError(CredentialsManagerErrors.noCredentials, result: [:])
    }
    return .success(.object(token.claims))
  }
}
