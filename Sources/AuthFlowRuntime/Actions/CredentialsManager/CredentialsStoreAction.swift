public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_store` — stores credentials in the scenario's Credentials Manager
/// (Auth0.swift `credentialsManager.store(credentials:)`).
public struct CredentialsStoreAction: Action {
  static let credentials = Parameter<Value>(
    "credentials", required: true, summary: "A credentials result, e.g. `${{ steps.login }}`.")

  public static let signature = ActionSignature(
    name: "credentials_store", summary: "Store credentials (a login step's result) in the Credentials Manager.",
    declaring: [
      Self.credentials
    ],
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Keeps `access_token`, `id_token`, `refresh_token`, `token_type`, `expires_in`, `expires_at`
    and `scope` of the given credentials as the scenario's stored credentials, readable as
    `credentials` in expressions (`credentials.refresh_token`, `credentials.stored`, and
    `credentials.api[AUDIENCE]` for API credentials). Credentials without `access_token` are
    refused. The result is the stored credentials. Each scenario has its own store.
    """

  public static let example = """
    scenario: Store credentials after a login
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid profile offline_access
      - id: store
        credentials_store: { credentials: "${{ steps.login }}" }
      - assert:
          that: ${{ credentials.stored && credentials.refresh_token == steps.login.refresh_token }}
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: Only a credentials result can be stored
      steps:
        - id: fails
          credentials_store: { credentials: "${{ 'not credentials' }}" }
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    guard let credentials = try Parameters(parameters)[Self.credentials]?.objectValue else {
      throw .invalidParameter(Self.credentials, "expected a credentials result such as ${{ steps.login }}")
    }
    guard let token = credentials["access_token"], !token.isNull else {
      throw .invalidParameter(Self.credentials, "has no access_token (did the login step fail?)")
    }
    var store = await context.credentialsStore()
    store.store(credentials)
    await context.setCredentialsStore(store)
    return .success(.object(store.main ?? [:]))
  }
}
