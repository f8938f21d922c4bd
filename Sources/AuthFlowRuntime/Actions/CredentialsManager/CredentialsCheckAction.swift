public import AuthFlowCore
public import AuthFlowScenario

/// `credentials_check` — Auth0.swift `hasValid(minTTL:)` and `canRenew()`.
public struct CredentialsCheckAction: Action {
  static let minTTL = Parameter<Duration>(
    "min_ttl", summary: "How long the access token must still be valid (default 0).",
    maximumDuration: InputLimits.longestMinimumTTL)

  public static let signature = ActionSignature(
    name: "credentials_check", summary: "Check the stored credentials: `has_valid` (with `min_ttl`) and `can_renew`.",
    declaring: [
      Self.minTTL
    ],
    results: .closed([
      ResultField("stored", "Whether credentials are stored."),
      ResultField("has_valid", "Whether they are valid for `min_ttl` more, or renewable."),
      ResultField("can_renew", "Whether a refresh token is stored."),
      ResultField("expired", "Whether the access token expires within `min_ttl`."),
      ResultField("ttl", "Seconds left on the access token."),
    ]))

  public static let documentation = """
    Reads the stored credentials without network calls. The result: `has_valid` — credentials
    are stored and either the access token is valid for at least `min_ttl` more, or a refresh
    token is stored (Auth0.swift v2's rule: renewable credentials count as valid);
    `can_renew` — a refresh token is stored; `expired` — the access token expires within
    `min_ttl`; `stored`; and `ttl`, the seconds left on the access token.
    """

  public static let example = """
    scenario: Credentials without a refresh token are valid only while unexpired
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.alice.email }}
          password: ${{ tenant.users.alice.password }}
          scope: openid
      - credentials_store: { credentials: "${{ steps.login }}" }
      - id: fresh
        credentials_check: {}
        expect: { has_valid: true, can_renew: false, expired: false }
      - id: too_short
        credentials_check: { min_ttl: 48h }
        expect: { has_valid: false, expired: true }
    """

  public static let failingExample = FailingExample(
    .invalidParameter,
    scenario: """
      scenario: min_ttl must be a duration
      steps:
        - id: fails
          credentials_check: { min_ttl: "${{ 'soon' }}" }
      """)

  public static let traits = ActionTraits(failures: [.invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let minTTL = Int(
      (try Parameters(parameters)[Self.minTTL] ?? .zero).seconds)
    let store = await context.credentialsStore()
    let now = await context.now()
    var result: [String: Value] = [
      "stored": .bool(store.main != nil),
      "has_valid": .bool(CredentialsManager.hasValid(store, minTTL: minTTL, now: now)),
      "can_renew": .bool(store.main?["refresh_token"] != nil),
      "expired": .bool(store.main.map { CredentialsManager.willExpire($0, within: minTTL, now: now) } ?? true),
    ]
    if let expiresAt = store.main?["expires_at"]?.doubleValue { result["ttl"] = .int(Int(expiresAt - now)) }
    return .success(.object(result))
  }
}
