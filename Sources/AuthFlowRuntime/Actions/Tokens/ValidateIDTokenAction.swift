public import AuthFlowCore
import AuthFlowJOSE
public import AuthFlowScenario

/// `validate_id_token` — docs/protocol.md §5 on any token (v3's opt-in `validateClaims()`).
public struct ValidateIDTokenAction: Action {
  static let idToken = Parameter<String>("id_token", required: true, summary: "The token (a JWT value or a string).")
  static let issuer = Parameter<String>("issuer", summary: "Expected `iss`; default the tenant's issuer.")
  static let clientID = Parameter<String>("client_id", summary: "Expected audience; default the client's `client_id`.")
  static let nonce = Parameter<String>("nonce", summary: "Expected nonce; not checked when absent.")
  static let maxAge = Parameter<Int>("max_age", summary: "Seconds; requires and checks `auth_time`.")
  static let organization = Parameter<String>(
    "organization", summary: "`org_…` checks `org_id`, a name checks `org_name`.")
  static let leeway = Parameter<Int>("leeway", summary: "Seconds (default 60, as `validateClaims()`).")

  public static let signature = ActionSignature(
    name: "validate_id_token", summary: "Validate an ID token as Auth0.swift does, plus the OIDC Core rules it omits.",
    declaring: [Self.idToken, Self.issuer, Self.clientID, Self.nonce, Self.maxAge, Self.organization, Self.leeway],
    results: .closed([
      ResultField.secret("id_token", "The token, a JWT value when it decodes."),
      ResultField("id_token_valid", "Whether it passed every check."),
      ResultField("id_token_error", "Why not, in Auth0.swift's words."),
      ResultField("check", "The check that failed (`kid`, `signature`, `aud`, `exp`, …)."),
    ]))

  public static let documentation = """
    Validates a token with the tenant's JWKS (cached for the run, refetched once on an unknown
    `kid`): size, decode (no repeated members), `alg` (RS256 only), `crit`, `typ`, `kid`, the
    key's `use` / `key_ops` / `alg`, signature, then `iss`, `sub`, `aud`, `exp`, `nbf`, `iat`,
    `nonce`, `azp`, `auth_time`, `org_id`/`org_name` (docs/id-token-validation.md); the first
    failure is reported, with Auth0.swift's exact message for the checks it makes. The result:
    `id_token_valid`, `id_token_error`, `check` (the failed check), `id_token`. A failure fails
    the step unless `expect` names `id_token_valid` or `id_token_error`.
    """

  public static let example = """
    scenario: A token without a subject is rejected
    client: native
    steps:
      - id: token
        mock_sign:
          omit: [sub]
      - id: validate
        validate_id_token:
          id_token: ${{ steps.token.token }}
        expect:
          id_token_valid: false
          id_token_error: Subject (sub) claim must be a string present in the ID token
    """

  public static let failingExample = FailingExample(
    .flow,
    scenario: """
      scenario: A token with alg none is refused
      requires: [mock_control]
      client: native
      steps:
        - id: forged
          mock_sign: { variant: none }
        - id: fails
          validate_id_token: { id_token: "${{ steps.forged.token }}" }
      """)

  public static let traits = ActionTraits(failures: [.environment, .flow, .invalidParameter])

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let token = try input.required(Self.idToken)
    guard let clientID = try input[Self.clientID] ?? context.client.clientID else {
      throw .invalidParameter(Self.clientID, "is required when the client profile has none")
    }
    let options = IDTokenValidator.Options(
      issuer: try input[Self.issuer] ?? context.tenant.issuer, clientID: clientID, nonce: try input[Self.nonce],
      maxAge: try input[Self.maxAge], organization: try input[Self.organization],
      leeway: try input[Self.leeway] ?? IDTokenCheck.defaultLeeway, algorithms: context.tenant.idTokenAlgorithms,
      clientSecret: context.client.clientSecret,
      // A token given to the step may come from an earlier one: its age is not judged.
      receivedNow: false)
    let failure = await IDTokenCheck.failure(of: token, options: options, context: context)
    var jwt = JWTValue(raw: token)
    jwt?.signatureValid = failure.map { !$0.isSignatureFailure } ?? true
    return .success(
      .object([
        "id_token": jwt.map(Value.jwt) ?? Value.string(token).asSecret,
        "id_token_valid": .bool(failure == nil),
        "id_token_error": failure.map { .string($0.message) } ?? .null,
        "check": failure.map { .string($0.check.rawValue) } ?? .null,
      ]))
  }
}
