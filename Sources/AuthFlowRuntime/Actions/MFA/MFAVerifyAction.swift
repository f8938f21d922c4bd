public import AuthFlowCore
import AuthFlowJOSE
public import AuthFlowScenario
import Foundation

/// `mfa_verify` — completes an MFA login (Auth0.swift `login(withOTP:mfaToken:)`,
/// `login(withOOBCode:mfaToken:bindingCode:)`, `login(withRecoveryCode:mfaToken:)`).
public struct MFAVerifyAction: Action {
  static let mfaToken = Parameter<String>("mfa_token", required: true, summary: "From the `mfa_required` error's body.")
  static let otp = Parameter<String>("otp", summary: "A one-time password, as given.")
  static let totpSecret = Parameter<String>(
    "totp_secret", summary: "A base32 TOTP secret: the current code is computed.")
  static let oobCode = Parameter<String>("oob_code", summary: "From `mfa_challenge` (OOB).")
  static let bindingCode = Parameter<String>(
    "binding_code", summary: "With `oob_code`, when the channel binds by prompt.")
  static let recoveryCode = Parameter<String>("recovery_code", summary: "A recovery code.")

  public static let signature = ActionSignature(
    name: "mfa_verify", summary: "Complete an MFA login with an OTP, an OOB code or a recovery code.",
    declaring: [Self.mfaToken, Self.otp, Self.totpSecret, Self.oobCode, Self.bindingCode, Self.recoveryCode]
      + IDTokenOptIn.parameters,
    results: .closed(ResultField.credentials))

  public static let documentation = """
    Sends `POST /oauth/token` with `mfa_token` and exactly one factor, as a JSON body:
    `otp` (or `totp_secret`, from which the current RFC 6238 code is computed) with the
    `…/mfa-otp` grant; `oob_code` (+ `binding_code`) with `…/mfa-oob`; `recovery_code` with
    `…/mfa-recovery-code`. The result is credentials (with a new `recovery_code` after a recovery
    login). A wrong code is `invalid_grant` with `Invalid otp_code.`, `Invalid binding_code.` or
    `MFA Authorization rejected.`
    """

  public static let example = """
    scenario: Bob completes MFA with his authenticator app
    client: native
    steps:
      - id: login
        login:
          username: ${{ tenant.users.bob.email }}
          password: ${{ tenant.users.bob.password }}
        expect:
          error.code: mfa_required
      - id: verify
        mfa_verify:
          mfa_token: ${{ steps.login.error.body.mfa_token }}
          totp_secret: ${{ tenant.users.bob.totp_secret }}
        expect:
          id_token.claims.email: bob@example.com
    """

  public static let failingExample = FailingExample(
    .protocolError, code: .invalidGrant,
    scenario: """
      scenario: A wrong OTP is refused
      client: native
      steps:
        - id: login
          login:
            username: ${{ tenant.users.bob.email }}
            password: ${{ tenant.users.bob.password }}
          expect:
            error.code: mfa_required
        - id: fails
          mfa_verify:
            mfa_token: ${{ steps.login.error.body.mfa_token }}
            otp: "000000"
      """)

  public static let traits = ActionTraits(
    capabilities: ["mfa"],
    errors: StepErrorCode.tokenEndpoint + [.expiredToken, .tooManyAttempts, .authorizationPending, .slowDown],
    failures: ActionTraits.tenantCall, mockClock: .reads, idTokenOptIn: true)

  public init() {}

  public func run(_ parameters: Value, in context: ActionContext) async throws(ActionError) -> ActionOutcome {
    let input = Parameters(parameters)
    var body: [String: Value] = ["mfa_token": .secret(.string(try input.required(Self.mfaToken)))]
    let grant: String
    if let otp = try await Self.otp(input, context: context) {
      grant = AuthenticationAPI.Grant.mfaOTP
      body["otp"] = .secret(.string(otp))
    } else if let oobCode = try input[Self.oobCode] {
      grant = AuthenticationAPI.Grant.mfaOOB
      body["oob_code"] = .secret(.string(oobCode))
      if let binding = try input[Self.bindingCode] { body["binding_code"] = .secret(.string(binding)) }
    } else if let recovery = try input[Self.recoveryCode] {
      grant = AuthenticationAPI.Grant.mfaRecoveryCode
      body["recovery_code"] = .secret(.string(recovery))
    } else {
      throw .invalidParameter(Self.otp, "give one of otp, totp_secret, oob_code or recovery_code")
    }
    context.secrets.register(secretsIn: .object(body))
    return try await AuthenticationAPI(context).token(grant: grant, body)
  }

  /// The time an authenticator app reads: the mock's virtual clock on the mock tenant (whose
  /// codes are checked against it), else the scenario's clock.
  static func authenticatorTime(_ context: ActionContext) async throws(ActionError) -> Double {
    guard context.tenant.capabilities.contains(MockControl.capability) else { return await context.now() }
    return try await MockControl(context, action: "mfa_verify").clock()
  }

  /// `otp` as given, or the TOTP code of `totp_secret` at `now`.
  static func otp(_ input: Parameters, context: ActionContext) async throws(ActionError) -> String? {
    if let otp = try input[Self.otp] { return otp }
    guard let secret = try input[Self.totpSecret] else { return nil }
    guard let totp = TOTP(base32Secret: secret) else {
      throw .invalidParameter(Self.totpSecret, "is not a base32 TOTP secret")
    }
    return totp.code(at: Date(timeIntervalSince1970: try await authenticatorTime(context)))
  }
}
