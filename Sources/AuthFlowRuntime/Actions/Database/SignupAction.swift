public import AuthFlowCore
public import AuthFlowScenario

/// `signup` — creates a database user (Auth0.swift `signup(email:username:password:connection:…)`).
public struct SignupAction: Action {
  /// The root attributes the SDK sends beside the required members (docs/protocol.md §4.1).
  static let rootAttributeNames = ["given_name", "family_name", "name", "nickname", "picture", "phone_number"]

  static let email = Parameter<String>("email", required: true, summary: "The new user's email.")
  static let password = Parameter<String>("password", required: true, summary: "The password (a secret).")
  static let connection = Parameter<String>(
    "connection", summary: "The database connection (default `Username-Password-Authentication`).")
  static let username = Parameter<String>("username", summary: "When the connection requires usernames.")
  static let userMetadata = Parameter<[String: Value]>("user_metadata", summary: "Up to 10 string properties.")
  static let rootAttributes = Parameter<[String: Value]>(
    "root_attributes",
    summary: "given_name, family_name, name, nickname, picture, phone_number (never override the above).")

  public static let signature = ActionSignature(
    name: "signup", summary: "Create a database user (POST /dbconnections/signup).",
    declaring: [Self.email, Self.password, Self.connection, Self.username, Self.userMetadata, Self.rootAttributes],
    results: .closed(
      [
        ResultField("_id", "The new user's id within the connection."), ResultField("email", "The email."),
        ResultField("email_verified", "Whether it is verified; false when the tenant does not say.", type: .bool),
        ResultField("username", "The username, when the connection uses them."),
        ResultField("user_metadata", "The metadata given, as the tenant echoes it.", type: .object),
      ] + Self.rootAttributeNames.map { ResultField($0, "The root attribute, as the tenant echoes it.") } + [.response])
  )

  public static let documentation = """
    Sends `POST /dbconnections/signup` with `client_id`, `email`, `password`, `connection`, and
    `username`, `user_metadata` and root attributes when given, as a JSON body; root attributes
    never override the members the action sets (as the SDK merges them). The result is the
    response body (`email`, `email_verified` — false when absent, `username`, `_id`) and
    `response`; the SDK does not log in afterwards, so follow with `login`. Errors use the legacy
    envelope (`code`, `description`): `user_exists`, `invalid_password` (with `error.body.name`
    `PasswordStrengthError` and `description` an object, so `error.description` is null),
    `invalid_signup`, …
    """

  public static let example = """
    scenario: Sign up, then log in
    client: native
    vars:
      email: ${{ random_email() }}
      password: ${{ random_password() }}
    steps:
      - id: signup
        signup:
          email: ${{ vars.email }}
          password: ${{ vars.password }}
          user_metadata: { plan: free }
        expect:
          email: ${{ vars.email }}
          email_verified: false
      - id: again
        signup: { email: "${{ vars.email }}", password: "${{ vars.password }}" }
        expect:
          error.code: user_exists
      - id: login
        login: { username: "${{ vars.email }}", password: "${{ vars.password }}" }
        expect:
          id_token.claims.email: ${{ vars.email }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .userExists,
    scenario: """
      scenario: An existing user cannot sign up again
      client: native
      steps:
        - id: fails
          signup:
            email: ${{ tenant.users.alice.email }}
            password: Another-Passw0rd!
      """)

  public static let traits = ActionTraits(
    capabilities: ["signup"],
    capabilityUses: [
      CapabilityUse(
        "bot_detection", when: Self.email, .described("one the tenant finds suspicious, to see `requires_verification`")
      ),
      CapabilityUse("password_dictionary", when: Self.password, .described("a common word, to see it refused")),
      CapabilityUse(
        "password_no_user_info", when: Self.password,
        .described("one holding the user's name or email, to see it refused")),
    ],
    errors: StepErrorCode.authenticationAPI + [
      .requiresVerification, .passwordDictionaryError, .passwordNoUserInfoError, .userExists, .invalidPassword,
      .invalidSignup, .usernameExists, .invalidConnection, .unauthorized,
    ],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let api = AuthenticationAPI(context)
    var body: [String: Value] = [
      "client_id": .string(try api.clientID()),
      "email": .string(try input.required(Self.email)),
      "password": .secret(.string(try input.required(Self.password))),
      "connection": .string(try input[Self.connection] ?? "Username-Password-Authentication"),
    ]
    AuthenticationAPI.put("username", try input[Self.username], in: &body)
    if let metadata = try input[Self.userMetadata] { body["user_metadata"] = .object(metadata) }
    for (key, value) in try input[Self.rootAttributes] ?? [:] where body[key] == nil {
      guard Self.rootAttributeNames.contains(key) else {
        throw .invalidParameter(
          "\(Self.rootAttributes.name).\(key)", "expected one of \(Self.rootAttributeNames.joined(separator: ", "))")
      }
      body[key] = value
    }
    return try AuthenticationResponse.outcome(try await api.post("dbconnections/signup", json: body)) { members in
      var result = members
      if result["email_verified"]?.boolValue == nil { result["email_verified"] = false }
      return result
    }
  }
}
