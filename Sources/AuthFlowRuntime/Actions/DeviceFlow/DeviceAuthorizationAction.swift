public import AuthFlowCore
public import AuthFlowScenario

/// `device_authorization` — requests a device code (`POST /oauth/device/code`, RFC 8628 §3.1).
public struct DeviceAuthorizationAction: Action {
  static let scope = Parameter<String>("scope", summary: "Default `openid profile email`; sent as given otherwise.")
  static let audience = Parameter<String>("audience", summary: "API identifier.")

  public static let signature = ActionSignature(
    name: "device_authorization",
    summary: "Request a device code and user code (POST /oauth/device/code, the device flow).",
    declaring: [Self.scope, Self.audience],
    results: .closed([
      ResultField.secret("device_code", "The device code (secret)."),
      ResultField("user_code", "The code the user enters."),
      ResultField("verification_uri", "Where the user enters it."),
      ResultField("verification_uri_complete", "The same, with the code."),
      ResultField("expires_in", "Seconds the codes live."), ResultField("interval", "Seconds between polls."),
      .response,
    ]))

  public static let documentation = """
    Sends `POST /oauth/device/code` with the scenario client's `client_id` (and secret, for a
    confidential client), `scope` and `audience`, as a JSON body. The result holds `device_code`
    (secret), `user_code`, `verification_uri`, `verification_uri_complete`, `expires_in`,
    `interval` and `response`. The user then enters the code with `device_activate`, and the
    device gets its tokens with `device_token`. A client whose grant types lack
    `urn:ietf:params:oauth:grant-type:device_code` gets `error.code: unauthorized_client`.
    """

  public static let example = """
    scenario: A device asks for a code
    requires: [device_flow]
    client: native
    steps:
      - id: code
        device_authorization: { scope: openid profile offline_access }
        expect:
          user_code: { matches: "^[B-Z]{4}-[B-Z]{4}$" }
          verification_uri: { matches: "/activate$" }
          verification_uri_complete: { contains: "/activate?user_code=" }
          expires_in: 900
          interval: 5
          device_code: { exists: true }
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .unauthorizedClient,
    scenario: """
      scenario: A client without the device grant cannot start it
      requires: [device_flow]
      client: m2m
      steps:
        - id: fails
          device_authorization: { scope: openid }
      """)

  public static let traits = ActionTraits(
    capabilities: ["device_flow"], errors: StepErrorCode.authenticationAPI + [.unauthorizedClient, .invalidScope],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let api = AuthenticationAPI(context)
    var body = try api.clientAuthentication()
    body["scope"] = .string(try input[Self.scope] ?? AuthenticationAPI.defaultScope)
    AuthenticationAPI.put("audience", try input[Self.audience], in: &body)
    let response = try await api.post("oauth/device/code", json: body)
    return try AuthenticationResponse.outcome(response) { members in
      var result = members
      if let code = members["device_code"]?.stringValue {
        context.secrets.register(secretsIn: .secret(.string(code)))
        result["device_code"] = Value.string(code).asSecret
      }
      return result
    }
  }
}
