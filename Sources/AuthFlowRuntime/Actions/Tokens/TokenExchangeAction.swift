public import AuthFlowCore
public import AuthFlowScenario

/// `token_exchange` — native Sign in with Apple / Facebook (Auth0.swift
/// `login(appleAuthorizationCode:…)`, `login(facebookSessionAccessToken:profile:…)`).
public struct TokenExchangeAction: Action {
  /// The subject token types (docs/protocol.md §3.1).
  static let subjectTokenTypes = [
    "apple": "http://auth0.com/oauth/token-type/apple-authz-code",
    "facebook": "http://auth0.com/oauth/token-type/facebook-info-session-access-token",
  ]

  static let provider = Parameter<String>(
    "provider", .oneOf(["apple", "facebook"]), required: true, summary: "The native provider.")
  static let subjectToken = Parameter<String>(
    "subject_token", required: true,
    summary: "Apple's authorization code, or Facebook's session-info access token (a secret).")
  static let firstName = Parameter<String>("first_name", summary: "Apple: the full name's given part.")
  static let lastName = Parameter<String>("last_name", summary: "Apple: the full name's family part.")
  static let profile = Parameter<[String: Value]>(
    "profile", summary: "Profile members (Facebook: the Graph API profile).")
  static let scope = Parameter<String>(
    "scope", summary: "Scope; `openid` is prepended (default `openid profile email`).")
  static let audience = Parameter<String>("audience", summary: "The API to get an access token for.")

  public static let signature = ActionSignature(
    name: "token_exchange", summary: "Exchange a native Apple or Facebook credential for tokens.",
    declaring: [
      Self.provider, Self.subjectToken, Self.firstName, Self.lastName, Self.profile, Self.scope, Self.audience,
    ] + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Sends `POST /oauth/token` with `grant_type=urn:ietf:params:oauth:grant-type:token-exchange`,
    `subject_token`, `subject_token_type` (`…/apple-authz-code` or
    `…/facebook-info-session-access-token`), `scope` (with `openid`), `audience`, and
    `user_profile` as a **JSON-encoded string**, as the SDK sends it: for Apple
    `{"name":{"firstName":…,"lastName":…}}` merged with `profile`, omitted when empty; for
    Facebook the `profile` given. The result is credentials.
    """

  public static let example = """
    scenario: An unknown Apple authorization code is rejected
    client: native
    steps:
      - id: apple
        token_exchange:
          provider: apple
          subject_token: not-a-real-apple-code
          first_name: Ada
          last_name: Lovelace
        expect:
          error.code: { one_of: [invalid_grant, unsupported_grant_type] }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: An unknown Apple authorization code is refused
      client: native
      steps:
        - id: fails
          token_exchange:
            provider: apple
            subject_token: not-a-real-apple-code
      """)

  public static let traits = ActionTraits(
    capabilityUses: [
      CapabilityUse("token_exchange_apple", when: Self.provider, .oneOf(["apple"])),
      CapabilityUse("token_exchange_facebook", when: Self.provider, .oneOf(["facebook"])),
    ],
    errors: StepErrorCode.tokenEndpoint, failures: ActionTraits.tenantCall, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let provider = try input.required(Self.provider)
    guard let tokenType = Self.subjectTokenTypes[provider] else {
      throw .invalidParameter(Self.provider, "expected apple or facebook")
    }
    var body: [String: Value] = [
      "subject_token": .secret(.string(try input.required(Self.subjectToken))),
      "subject_token_type": .string(tokenType),
      "scope": .string(AuthenticationAPI.scopeWithOpenID(try input[Self.scope])),
    ]
    AuthenticationAPI.put("audience", try input[Self.audience], in: &body)
    if let profile = try Self.userProfile(provider: provider, input) {
      body["user_profile"] = .string(Value.object(profile).jsonText(revealSecrets: true))
    }
    return try await AuthenticationAPI(context).token(grant: AuthenticationAPI.Grant.tokenExchange, body)
  }

  /// The profile the SDK encodes into `user_profile`, or nil when it would be empty.
  static func userProfile(provider: String, _ input: Parameters) throws(ActionError) -> [String: Value]? {
    var profile = try input[Self.profile] ?? [:]
    if provider == "apple" {
      var name: [String: Value] = [:]
      if let first = try input[Self.firstName] { name["firstName"] = .string(first) }
      if let last = try input[Self.lastName] { name["lastName"] = .string(last) }
      if !name.isEmpty { profile["name"] = .object(name) }
    }
    return profile.isEmpty ? nil : profile
  }
}
