public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_clear` — Auth0.swift `credentialsManager.revoke()`: revokes the stored refresh
/// token, then clears the store.
public struct CredentialsClearAction: Action {
  static let revoke = Parameter<Bool>(
    "revoke", summary: "Revoke the refresh token first (default true, as `revoke()`).")

  public static let signature = ActionSignature(
    name: "credentials_clear", summary: "Revoke the stored refresh token and clear the stored credentials.",
    declaring: [
      Self.revoke
    ],
    results: .closed([ResultField("revoked", "Whether a refresh token was revoked."), .response, .cause]))

  public static let documentation = """
    With a stored refresh token, sends `POST /oauth/revoke`; only when that succeeds is the store
    cleared (a failure is `revoke_failed` and the credentials stay). Without a refresh token, or
    with `revoke: false` (the SDK's `clear()`), the store is just cleared. The result:
    `revoked` (whether a token was revoked) and `response` when one was sent.
    """

  public static let example = """
    scenario: Clearing revokes the refresh token
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid offline_access
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: clear
        credentials_clear: {}
        expect: { revoked: true }
      - assert:
          that: ${{ !credentials.stored }}
      - id: renew
        renew: { refresh_token: "${{ steps.login.refresh_token }}" }
        expect: { error.code: invalid_grant }
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: Clearing asks for a boolean
      steps:
        - id: fails
          credentials_clear: { revoke: "${{ 'maybe' }}" }
      """)

  public static let traits = ActionTraits(
    capabilities: ["revocation"], errors: [.revokeFailed], failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    var store = await context.credentialsStore()
    var result: [String: Value] = ["revoked": false]
    if try Parameters(parameters)[Self.revoke] ?? true, let refreshToken = store.main?["refresh_token"]?.stringValue {
      let outcome = try await AuthenticationAPI(context).revoke(refreshToken: refreshToken)
      guard case .success(let value) = outcome else {
        return CredentialsManagerErrors.wrap(outcome, as: CredentialsManagerErrors.revokeFailed)
      }
      result["revoked"] = true
      result["response"] = value.member("response")
    }
    store.clear()
    await context.setCredentialsStore(store)
    return .success(.object(result))
  }
}
