public import AuthFlowCore
public import AuthFlowScenario

/// `mfa_challenge` — asks for an MFA challenge (Auth0.swift `multifactorChallenge(mfaToken:types:authenticatorId:)`).
public struct MFAChallengeAction: Action {
  static let mfaToken = Parameter<String>("mfa_token", required: true, summary: "From the `mfa_required` error's body.")
  static let challengeType = Parameter<String>("challenge_type", summary: "Space-joined types, e.g. `otp` or `oob`.")
  static let authenticatorID = Parameter<String>("authenticator_id", summary: "The authenticator to challenge.")

  public static let signature = ActionSignature(
    name: "mfa_challenge", summary: "Request an MFA challenge for an mfa_token (POST /mfa/challenge).",
    declaring: [Self.mfaToken, Self.challengeType, Self.authenticatorID],
    results: .closed([
      ResultField("challenge_type", "`otp` or `oob`: what `mfa_verify` must send."),
      ResultField.secret("oob_code", "For `oob`: the code `mfa_verify` polls with."),
      ResultField("binding_method", "For `oob`: `prompt` when the user must enter the binding code sent to them."),
      .response,
    ]))

  public static let documentation = """
    Sends `POST /mfa/challenge` with `client_id`, `mfa_token`, and `challenge_type` /
    `authenticator_id` when given, as a JSON body. The result is the response body
    (`challenge_type`, and for OOB `oob_code` (secret) and `binding_method`) and `response`.
    Complete the login with `mfa_verify`.
    """

  public static let example = """
    scenario: Bob's login needs a second factor, and the challenge is OTP
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.bob.email }}
          password: ${{ tenant.users.bob.password }}
        expect:
          error.code: mfa_required
      - id: challenge
        mfa_challenge:
          mfa_token: ${{ steps.login.error.body.mfa_token }}
          challenge_type: otp
        expect:
          challenge_type: otp
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: An unknown mfa_token cannot be challenged
      client: native
      steps:
        - id: fails
          mfa_challenge: { mfa_token: not-an-mfa-token, challenge_type: otp }
      """)

  public static let traits = ActionTraits(
    capabilities: ["mfa"],
    errors: StepErrorCode.authenticationAPI + [
      .invalidGrant, .expiredToken, .unsupportedChallengeType, .accessDenied, .associationRequired,
      .mfaRegistrationRequired,
    ],
    failures: ActionTraits.tenantCall)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    let api = AuthenticationAPI(context)
    var body = try api.clientAuthentication()
    body["mfa_token"] = .secret(.string(try input.required(Self.mfaToken)))
    AuthenticationAPI.put("challenge_type", try input[Self.challengeType], in: &body)
    AuthenticationAPI.put("authenticator_id", try input[Self.authenticatorID], in: &body)
    return try AuthenticationResponse.outcome(try await api.post("mfa/challenge", json: body))
  }
}
