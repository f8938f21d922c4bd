import AuthFlowCore
import AuthFlowJOSE
import Hummingbird

/// `/.well-known/openid-configuration` and `/.well-known/jwks.json` (docs/protocol.md §4.8).
struct DiscoveryRoutes {
  let tenant: MockTenant

  /// The handlers of its operations, by operationId in `Resources/mock-openapi.json` (``MockOperations``).
  var handlers: [String: MockHandler] {
    [
      "getOpenIDConfiguration": { _, _ in Responses.json(discovery()) },
      "getJWKS": { _, _ in Responses.json(jwks()) },
    ]
  }

  func discovery() -> Value {
    let issuer = tenant.issuer
    let base = tenant.baseURL
    func strings(_ items: [String]) -> Value { .array(items.map(Value.string)) }
    return .object([
      "issuer": .string(issuer),
      "authorization_endpoint": .string(base + "authorize"),
      "token_endpoint": .string(base + "oauth/token"),
      "device_authorization_endpoint": .string(base + "oauth/device/code"),
      "userinfo_endpoint": .string(base + "userinfo"),
      "mfa_challenge_endpoint": .string(base + "mfa/challenge"),
      "jwks_uri": .string(base + ".well-known/jwks.json"),
      "registration_endpoint": .string(base + "oidc/register"),
      "revocation_endpoint": .string(base + "oauth/revoke"),
      "end_session_endpoint": .string(base + "oidc/logout"),
      "scopes_supported": strings(
        "openid profile offline_access name given_name family_name nickname email email_verified picture created_at identities phone address"
          .split(separator: " ").map(String.init)),
      // What `/authorize` accepts, as Auth0 lists it: the code flow, the implicit and the hybrid ones.
      "response_types_supported": strings([
        "code", "token", "id_token", "code token", "code id_token", "token id_token", "code token id_token",
      ]),
      "code_challenge_methods_supported": strings(["S256", "plain"]),
      "response_modes_supported": strings(["query", "fragment", "form_post"]),
      "subject_types_supported": strings(["public"]),
      // Auth0's list, and the algorithm the fixture signs with (`id_token_signing_alg`).
      "id_token_signing_alg_values_supported": strings(idTokenAlgorithms),
      "token_endpoint_auth_methods_supported": strings(["client_secret_basic", "client_secret_post", "none"]),
      "claims_supported": strings([
        "aud", "auth_time", "created_at", "email", "email_verified", "exp", "family_name", "given_name", "iat",
        "identities", "iss", "name", "nickname", "phone_number", "picture", "sub",
      ]),
      "grant_types_supported": strings(TokenRoutes.supportedGrantTypes),
      "request_uri_parameter_supported": .bool(false),
      "request_parameter_supported": .bool(false),
      // docs/protocol.md §4.8 lists Auth0's `backchannel_*` fields; the CIBA ones (poll mode only).
      "backchannel_authentication_endpoint": .string(base + "bc-authorize"),
      "backchannel_token_delivery_modes_supported": strings(["poll"]),
      "backchannel_user_code_parameter_supported": .bool(false),
    ])
  }

  /// The ID-token algorithms discovery lists: Auth0's (HS256, RS256, PS256) and the fixture's.
  var idTokenAlgorithms: [String] {
    let listed = ["HS256", "RS256", "PS256"]
    let configured = tenant.fixture.settings.idTokenSigningAlgorithm.rawValue
    return listed.contains(configured) ? listed : listed + [configured]
  }

  func jwks() -> Value {
    let keys: [Value] = tenant.publishedJWKS.keys.map { key in
      var members: [String: Value] = ["kty": .string(key.kty)]
      func put(_ name: String, _ text: String?) { if let text { members[name] = .string(text) } }
      put("kid", key.kid)
      put("alg", key.alg)
      put("use", key.use)
      put("n", key.n)
      put("e", key.e)
      put("crv", key.crv)
      put("x", key.x)
      put("y", key.y)
      return .object(members)
    }
    return .object(["keys": .array(keys)])
  }
}
