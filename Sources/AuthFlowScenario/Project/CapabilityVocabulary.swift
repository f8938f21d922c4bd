/// The capability names `requires:` and a tenant's `capabilities:` may use: the documented
/// vocabulary (docs/tenants.md), plus the names a tenant profile declares under
/// `custom_capabilities:`. Any other name is a typo, reported at validate time with
/// "did you mean".
public enum CapabilityVocabulary {
  /// Every built-in capability name with what it means, sorted by name.
  public static let builtIn: [(name: String, summary: String)] = [
    ("authorization_code", "the authorization code grant (discovered from `grant_types_supported`)"),
    ("bot_detection", "bot detection: a suspicious login must pass a CAPTCHA"),
    ("client_credentials", "the client credentials grant (discovered)"),
    ("device_flow", "the device authorization grant (RFC 8628)"),
    ("discovery", "an OpenID discovery document (discovered)"),
    ("dynamic_client_registration", "dynamic client registration (RFC 7591)"),
    ("implicit", "the implicit grant / `response_type=id_token` (discovered)"),
    (
      "inbox",
      "the emails and text messages the tenant sends can be read (`outbox`): the mock's outbox, or the tenant's `inbox:`"
    ),
    ("legacy_ro", "the legacy `/oauth/ro` resource-owner endpoint"),
    ("logout", "an end-session endpoint (discovered; Auth0's `/v2/logout`)"),
    ("mfa", "multi-factor authentication (Auth0's `mfa-otp` grant, discovered on auth0 tenants)"),
    ("mock_control", "the mock's control endpoints (`/__mock/*`: clock, faults, outbox)"),
    ("my_account", "the My Account API"),
    ("organizations", "Auth0 Organizations"),
    ("otp_challenge", "the OTP challenge on Universal Login"),
    ("passkeys", "passkey signup and login"),
    ("password", "the resource-owner password grant (discovered)"),
    ("password_dictionary", "the password dictionary policy"),
    ("password_history", "the password history policy"),
    ("password_no_user_info", "the policy refusing passwords that contain user information"),
    ("password_realm", "Auth0's password-realm grant (discovered on auth0 tenants)"),
    ("passwordless", "passwordless login (Auth0's passwordless OTP grant, discovered on auth0 tenants)"),
    ("passwordless_email", "passwordless login by email"),
    ("passwordless_sms", "passwordless login by SMS"),
    ("passwordless_universal_login", "passwordless login on Universal Login"),
    ("pkce", "PKCE with S256 (discovered from `code_challenge_methods_supported`)"),
    (
      "pkce_required",
      "PKCE enforced: an authorization request of a public client without `code_challenge` is refused (`doctor --probe`, or declared)"
    ),
    ("refresh_token", "the refresh token grant (discovered)"),
    (
      "refresh_token_rotation",
      "refresh tokens rotated on use, the old one refused afterwards (`doctor --probe`, or declared)"
    ),
    ("revocation", "token revocation (RFC 7009; discovered from `revocation_endpoint`)"),
    ("signup", "signup through the Authentication API and Universal Login"),
    ("social_github", "a GitHub social connection"),
    (
      "sso_session",
      "keeps a login session: a second authorization request in the same browser returns without the login page (`doctor --probe`, or declared)"
    ),
    ("token_exchange_apple", "native token exchange of an Apple authorization code"),
    ("token_exchange_facebook", "native token exchange of a Facebook session token"),
    ("userinfo", "the UserInfo endpoint (discovered from `userinfo_endpoint`)"),
  ]

  /// The built-in names.
  public static let builtInNames: Set<String> = Set(builtIn.map(\.name))
}

extension ProjectConfig {
  /// The capability names this project may use: the built-in vocabulary and every tenant's
  /// `custom_capabilities`.
  public var capabilityNames: Set<String> {
    CapabilityVocabulary.builtInNames.union(tenants.flatMap { $0.customCapabilities.map(\.value) })
  }
}
