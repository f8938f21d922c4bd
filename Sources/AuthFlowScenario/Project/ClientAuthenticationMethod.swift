/// How a client authenticates at the token and revocation endpoints (OpenID Connect Core §9,
/// RFC 6749 §2.3.1): the values a client profile's `token_endpoint_auth_method` may take.
public enum ClientAuthenticationMethod: String, Sendable, CaseIterable, Hashable {
  /// HTTP Basic: `Authorization: Basic base64(urlencode(id):urlencode(secret))`, the secret not in
  /// the body. The OpenID default when discovery omits `token_endpoint_auth_methods_supported`.
  case clientSecretBasic = "client_secret_basic"
  /// `client_id` and `client_secret` in the request body (Auth0.swift's way, in JSON).
  case clientSecretPost = "client_secret_post"
  /// A public client: `client_id` only, no secret sent.
  case none

  /// The client profile member that names the method.
  public static let profileKey = "token_endpoint_auth_method"
}
