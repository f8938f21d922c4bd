import AuthFlowCore
import AuthFlowHTTP
public import AuthFlowScenario
import Foundation

/// How one client authenticates at a tenant's token and revocation endpoints, and why: the one
/// decision `authflow doctor` reports and every token, refresh and revocation request applies.
///
/// In order:
/// 1. the client profile's `token_endpoint_auth_method`, on any tenant kind;
/// 2. `mock` and `auth0` tenants: `client_secret_post`, the secret in the JSON body as
///    Auth0.swift sends it (docs/protocol.md §1, §3);
/// 3. `oidc` tenants whose discovery document lists `token_endpoint_auth_methods_supported`:
///    `client_secret_basic` when listed (RFC 6749 §2.3.1: every server supports it), else
///    `client_secret_post` when listed, else `client_secret_basic` (reported by `doctor`);
/// 4. `oidc` tenants whose document omits the list: its OpenID default, `client_secret_basic`
///    (OpenID Connect Discovery 1.0 §3).
public struct ClientAuthentication: Sendable, Equatable {
  public var method: ClientAuthenticationMethod
  /// Where the choice came from, as `doctor` prints it.
  public var reason: String
  /// The methods the provider supports (its list or the OpenID default); nil when the tenant is
  /// not an `oidc` one or the choice is the profile's on a tenant without discovery.
  public var supported: [String]?
  /// Whether `supported` is the provider's own list rather than the OpenID default.
  public var listedByProvider: Bool

  /// The method for `client` on a tenant of `kind` described by `provider`.
  public static func resolve(
    client: ClientProfile, kind: TenantContext.Kind, provider: ProviderMetadata?
  ) -> ClientAuthentication {
    let listed = provider?.tokenEndpointAuthMethodsSupported
    let supported: [String]? = kind == .oidc ? (listed ?? ProviderMetadata.defaultTokenEndpointAuthMethods) : nil
    func make(_ method: ClientAuthenticationMethod, _ reason: String) -> ClientAuthentication {
      ClientAuthentication(method: method, reason: reason, supported: supported, listedByProvider: listed != nil)
    }
    if let named = client.tokenEndpointAuthMethod,
      let method = ClientAuthenticationMethod(rawValue: named)
    {
      return make(method, Messages.fromProfile)
    }
    guard kind == .oidc else { return make(.clientSecretPost, Messages.auth0) }
    guard let listed else { return make(.clientSecretBasic, Messages.openIDDefault) }
    if listed.contains(ClientAuthenticationMethod.clientSecretBasic.rawValue) {
      return make(.clientSecretBasic, Messages.listed("client_secret_basic"))
    }
    if listed.contains(ClientAuthenticationMethod.clientSecretPost.rawValue) {
      return make(.clientSecretPost, Messages.listed("client_secret_post"))
    }
    return make(.clientSecretBasic, Messages.neitherListed)
  }

  /// The method for the scenario's client on its tenant.
  static func resolve(_ context: ActionContext) -> ClientAuthentication {
    resolve(client: context.client, kind: context.tenant.kind, provider: context.tenant.provider)
  }

  /// `base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
  static func basicCredentials(id: String, secret: String) -> String {
    let joined = PercentEncoding.formEncode(id) + ":" + PercentEncoding.formEncode(secret)
    return Data(joined.utf8).base64EncodedString()
  }

  enum Messages {
    static let fromProfile = "the client profile's token_endpoint_auth_method"
    static let auth0 = "Auth0.swift's way: client_secret in the JSON body (docs/protocol.md §3)"
    static let openIDDefault =
      "the OpenID default: discovery omits token_endpoint_auth_methods_supported (OpenID Connect Discovery 1.0 §3)"
    static let neitherListed =
      "RFC 6749 §2.3.1's Basic: token_endpoint_auth_methods_supported lists neither client_secret_basic nor client_secret_post"

    static func listed(_ method: String) -> String {
      "token_endpoint_auth_methods_supported lists \(method)"
    }
  }
}
