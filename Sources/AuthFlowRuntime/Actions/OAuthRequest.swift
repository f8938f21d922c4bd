import AuthFlowCore
import AuthFlowHTTP
import Foundation

/// A request to a tenant's token or revocation endpoint, encoded as the tenant expects it.
///
/// - `mock` and `auth0`: a JSON body carrying `client_id` and `client_secret`, as Auth0.swift
///   sends it (PROTOCOL §1).
/// - `oidc`: an `application/x-www-form-urlencoded` body (RFC 6749 §4.1.3), the client
///   authenticating per `ClientAuthenticationMethod.resolve`.
enum OAuthRequest {
  /// The request to POST `body` to `url` on the context's tenant.
  static func make(
    url: String, body: [String: Value], headers: HTTPHeaderFields = [:], context: ActionContext
  ) -> HTTPRequest {
    switch context.tenant.wireFormat {
    case .json:
      return HTTPRequest.json(.post, url: url, body: .object(body), headers: headers)
    case .form:
      var fields = body
      var headers = headers
      let method = ClientAuthenticationMethod.resolve(client: context.client, provider: context.tenant.provider)
      switch method {
      case .clientSecretBasic:
        if let id = fields["client_id"]?.stringValue, let secret = fields["client_secret"]?.stringValue {
          let credentials = ClientAuthenticationMethod.basicCredentials(id: id, secret: secret)
          context.secrets.register(credentials)
          headers["Authorization"] = "Basic \(credentials)"
          fields["client_id"] = nil
          fields["client_secret"] = nil
        }
      case .none:
        fields["client_secret"] = nil
      case .clientSecretPost:
        break
      }
      return HTTPRequest.form(url: url, fields: formFields(fields), headers: headers)
    }
  }

  /// Body members as form fields, in name order; nulls left out, strings as they are, other
  /// values as JSON text (secrets revealed: this goes on the wire).
  static func formFields(_ body: [String: Value]) -> URLParameters {
    URLParameters(
      body.keys.sorted().compactMap { key -> (String, String)? in
        guard let value = body[key], !value.isNull else { return nil }
        return (key, value.stringValue ?? value.jsonText(revealSecrets: true))
      })
  }
}

/// How a client authenticates at an `oidc` tenant's token endpoint (OpenID Connect Core §9).
enum ClientAuthenticationMethod: String, Sendable {
  case clientSecretPost = "client_secret_post"
  case clientSecretBasic = "client_secret_basic"
  case none

  /// The client profile's `token_endpoint_auth_method` when it names one; else
  /// `client_secret_basic` when the provider's discovery document supports Basic but not POST;
  /// else `client_secret_post`.
  static func resolve(client: Value, provider: ProviderMetadata?) -> ClientAuthenticationMethod {
    if let named = client.member("token_endpoint_auth_method")?.stringValue,
      let method = ClientAuthenticationMethod(rawValue: named)
    {
      return method
    }
    if let supported = provider?.tokenEndpointAuthMethodsSupported, !supported.contains("client_secret_post"),
      supported.contains("client_secret_basic")
    {
      return .clientSecretBasic
    }
    return .clientSecretPost
  }

  /// `base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
  static func basicCredentials(id: String, secret: String) -> String {
    let joined = PercentEncoding.formEncode(id) + ":" + PercentEncoding.formEncode(secret)
    return Data(joined.utf8).base64EncodedString()
  }
}
