public import AuthFlowCore
public import AuthFlowScenario

/// `passwordless_start` — sends a one-time code or link by email or SMS
/// (Auth0.swift `startPasswordless(email:…)` / `startPasswordless(phoneNumber:…)`).
public struct PasswordlessStartAction: Action {
  static let email = Parameter<String>("email", summary: "The address to send to (email connection).")
  static let phoneNumber = Parameter<String>("phone_number", summary: "The E.164 number to send to (sms connection).")
  static let connection = Parameter<String>(
    "connection", summary: "`email` or `sms` (default: `email` when `email` is given, else `sms`).")
  static let send = Parameter<String>(
    "send", .oneOf(["code", "link", "link_ios", "link_android"]), summary: "Default `code`.")

  public static let signature = ActionSignature(
    name: "passwordless_start", summary: "Start a passwordless login: send a code or link by email or SMS.",
    declaring: [Self.email, Self.phoneNumber, Self.connection, Self.send],
    results: .closed([
      ResultField("_id", "An id of the request."), ResultField("email", "The address the email went to."),
      ResultField("email_verified", "Whether the address is verified.", type: .bool),
      ResultField("phone_number", "The number the SMS went to."),
      ResultField("phone_verified", "Whether the number is verified.", type: .bool),
      ResultField("request_language", "The language of the SMS, when the tenant says."), .response,
    ]))

  public static let documentation = """
    Sends `POST /passwordless/start` with `client_id`, `connection`, `email` or `phone_number`,
    and `send`, as a JSON body (the SDK sends no `authParams`). The result is the response body
    and `response`. Read the code with `outbox` (the mock) and log in with `passwordless_login`.
    Bad input is `error.code` `bad.connection`, `bad.email`, `bad.phone_number`, …
    """

  public static let example = """
    scenario: Send a passwordless code by email
    client: native
    steps:
      - id: start
        passwordless_start: { email: "${{ vars.email }}" }
        expect:
          email: ${{ vars.email }}
          response.status: 200
    vars:
      email: ${{ random_email() }}
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .badConnection,
    scenario: """
      scenario: An unknown connection is refused
      client: native
      steps:
        - id: fails
          passwordless_start: { email: "${{ tenant.users.alice.email }}", connection: no-such-connection }
      """)

  public static let traits = ActionTraits(
    capabilities: ["passwordless"],
    capabilityUses: [
      CapabilityUse("passwordless_email", when: Self.email, .given),
      CapabilityUse("passwordless_sms", when: Self.phoneNumber, .given),
    ],
    errors: StepErrorCode.authenticationAPI + [
      .badConnection, .badEmail, .badPhoneNumber, .badRequest, .badTenant, .smsProviderError, .unauthorizedClient,
      .accessDenied,
    ],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let api = AuthenticationAPI(context)
    let email = try input[Self.email]
    let phone = try input[Self.phoneNumber]
    guard email != nil || phone != nil else {
      throw .invalidParameter(Self.email, "give `email` or `phone_number`")
    }
    var body: [String: Value] = [
      "client_id": .string(try api.clientID()),
      "connection": .string(try input[Self.connection] ?? (email != nil ? "email" : "sms")),
      "send": .string(try input[Self.send] ?? "code"),
    ]
    AuthenticationAPI.put("email", email, in: &body)
    AuthenticationAPI.put("phone_number", phone, in: &body)
    return try AuthenticationResponse.outcome(try await api.post("passwordless/start", json: body))
  }
}
