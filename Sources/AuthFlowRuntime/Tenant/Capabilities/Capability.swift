/// The capability names scenarios put in `requires`, and which the mock tenant has.
public enum Capability {
  /// Everything the built-in mock tenant implements. Not `pkce_required`: as Auth0, the mock
  /// accepts an authorization request without `code_challenge` (docs/protocol.md §2.1: PKCE is optional).
  public static let mock: Set<String> = [
    "authorization_code", "pkce", "refresh_token", "refresh_token_rotation", "password_realm", "password",
    "client_credentials", "userinfo", "revocation", "logout", "discovery", "passwordless", "passwordless_email",
    "passwordless_sms", "signup", "organizations", "mfa", "implicit", "mock_control", "passkeys",
    "my_account", "social_github", "token_exchange_apple", "token_exchange_facebook", "bot_detection",
    "password_dictionary", "password_history", "passwordless_universal_login", "otp_challenge",
    "password_no_user_info", "device_flow", "dynamic_client_registration", "legacy_ro", "sso_session",
    "inbox",
  ]

  /// Capabilities of ``mock`` that a fixture setting turns on or off, with the setting (for the
  /// capability docs): a running mock has them only as its fixture says.
  public static let mockFixtureSwitched: [String: String] = [
    "refresh_token_rotation": "unless its fixture sets `tenant.refresh_token_rotation: false`",
    "dynamic_client_registration":
      "when its fixture sets `tenant.dynamic_client_registration: true` (off by default, as on Auth0)",
  ]
}
