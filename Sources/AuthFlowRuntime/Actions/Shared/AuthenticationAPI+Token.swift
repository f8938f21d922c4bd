import AuthFlowCore
import AuthFlowHTTP

extension AuthenticationAPI {
  /// The `/oauth/token` grant URIs (docs/protocol.md §3.1).
  enum Grant {
    static let passwordRealm = "http://auth0.com/oauth/grant-type/password-realm"
    static let passwordlessOTP = "http://auth0.com/oauth/grant-type/passwordless/otp"
    static let refreshToken = "refresh_token"
    static let tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let mfaOTP = "http://auth0.com/oauth/grant-type/mfa-otp"
    static let mfaOOB = "http://auth0.com/oauth/grant-type/mfa-oob"
    static let mfaRecoveryCode = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
  }

  /// `POST /oauth/token` (the token endpoint) with `grant_type`, the client's authentication and `body`; the result is
  /// a credentials result (docs/protocol.md §3.2).
  func token(grant: String, _ body: [String: Value]) async throws(ActionError) -> ActionOutcome {
    var payload = try clientAuthentication()
    payload["grant_type"] = .string(grant)
    payload.merge(body) { _, new in new }
    return try await credentials(from: try await post("oauth/token", oauth: payload))
  }

  /// A token response as a credentials outcome, `expires_at` from the scenario's clock.
  func credentials(from response: HTTPResponse) async throws(ActionError) -> ActionOutcome {
    let now = await context.now()
    let context = self.context
    context.report(TokenResponseRules.errorFindings(in: response))
    return try AuthenticationResponse.outcome(response) { members in
      context.report(TokenResponseRules.findings(in: members))
      return AuthenticationResponse.credentials(members, now: now)
    }
  }
}
